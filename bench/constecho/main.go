// Command constecho is the baseline of bench/blocklist.sh: a bare Echo
// server whose one handler returns a constant JSON body.
package main

import (
	"flag"
	"log"
	"net/http"

	"github.com/labstack/echo/v4"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:18081", "listen address")
	flag.Parse()
	e := echo.New()
	e.HideBanner, e.HidePort = true, true
	body := []byte(`{"cpf":"46881973659","blocked":false,"bans":[]}`)
	e.GET("/const", func(c echo.Context) error { return c.Blob(http.StatusOK, echo.MIMEApplicationJSON, body) })
	log.Fatal(e.Start(*addr))
}
