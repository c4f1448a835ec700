package server

import (
	"errors"
	"fmt"
	"net"
	"strconv"
	"time"

	"github.com/juizado/juizado/internal/accounts"
	"github.com/labstack/echo/v4"
)

// ClientIP is the caller's address for the lockouts of the sign-in and of
// the public contest form (accounts.Lockout): the connection's, or
// X-Forwarded-For's behind a trusted proxy (Deps.TrustProxy).
func (s *Server) ClientIP(c echo.Context) string {
	if s.Deps.TrustProxy { // behind a proxy that sets X-Forwarded-For
		return c.RealIP()
	}
	ip := c.Request().RemoteAddr
	if h, _, err := net.SplitHostPort(ip); err == nil {
		ip = h
	}
	return ip
}

// Locked reports whether err is a lockout (*accounts.LockedError): it then
// sets Retry-After on c's response and returns the message, in
// Portuguese, with the minutes left (at least one).
func Locked(c echo.Context, err error) (msg string, ok bool) {
	var locked *accounts.LockedError
	if !errors.As(err, &locked) {
		return "", false
	}
	wait := max(time.Until(locked.Until), time.Minute)
	mins := int((wait + time.Minute - 1) / time.Minute)
	c.Response().Header().Set("Retry-After", strconv.Itoa(int(wait.Seconds())))
	return fmt.Sprintf("Muitas tentativas sem sucesso. O acesso está bloqueado; tente de novo em %d minuto(s).", mins), true
}
