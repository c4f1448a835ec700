package server

import (
	"context"
	"errors"
	"net/http"

	"github.com/juizado/juizado/internal/db"
	"github.com/juizado/juizado/internal/errs"
	"github.com/labstack/echo/v4"
)

// StatusClientClosedRequest is the status logged and counted for a request
// whose client went away before its answer (nginx's 499 "client closed
// request"): a gate agent closing its long-poll, a browser leaving a page.
// It is not a server error; nobody reads the answer.
const StatusClientClosedRequest = 499

// clientGone reports whether the client of c's request went away: net/http
// cancels the request's context when the connection closes (or the HTTP/2
// stream is reset) before the handler returns.
func clientGone(c echo.Context) bool {
	return errors.Is(c.Request().Context().Err(), context.Canceled)
}

// metricsStatus is the status the metrics count for a request that
// returned err: the status errorHandler answers with (the metrics
// middleware runs inside the request log, which calls errorHandler only
// after it), 499 when the client went away, the written status when there
// is no error or the answer was already sent.
func metricsStatus(c echo.Context, err error) int {
	if err == nil || c.Response().Committed {
		return c.Response().Status
	}
	if clientGone(c) {
		return StatusClientClosedRequest
	}
	var ae *errs.Error
	var he *echo.HTTPError
	switch {
	case errors.As(err, &ae):
		return StatusOf[ae.Kind]
	case errors.As(err, &he):
		return he.Code
	case db.IsUnavailable(err):
		return http.StatusServiceUnavailable
	}
	return http.StatusInternalServerError
}
