package server

import (
	"github.com/labstack/echo-contrib/echoprometheus"
	"github.com/labstack/echo/v4"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
)

// metrics installs the Prometheus middleware (requests by route template and
// status, latencies, sizes; a 404 on an unknown path counts under one label,
// never the raw path, since CPFs travel in paths), the database pool
// collector and GET /metrics. Each server has its own registry.
func (s *Server) metrics() error {
	reg := prometheus.NewRegistry()
	s.Metrics = reg
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	if sqlDB, err := s.Deps.DB.DB(); err == nil {
		reg.MustRegister(collectors.NewDBStatsCollector(sqlDB, "juizado"))
	}
	mw := echoprometheus.NewMiddlewareWithConfig(echoprometheus.MiddlewareConfig{
		Namespace:                 "juizado",
		Subsystem:                 "http",
		Registerer:                reg,
		DoNotUseRequestPathFor404: true,
		StatusCodeResolver:        metricsStatus, // 499 when the client went away; 4xx as answered
		// The Host header is the client's to choose: a label from it would
		// let anyone add series without end.
		LabelFuncs: map[string]echoprometheus.LabelValueFunc{
			"host": func(echo.Context, error) string { return "" },
		},
		Skipper: func(c echo.Context) bool { return c.Path() == "/metrics" },
	})
	s.Echo.Use(mw)
	s.Router("").GET("/metrics", Anyone, echoprometheus.NewHandlerWithConfig(echoprometheus.HandlerConfig{Gatherer: reg}))
	return nil
}
