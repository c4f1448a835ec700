package server

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/labstack/echo-contrib/echoprometheus"
	"github.com/labstack/echo/v4"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
)

// metrics returns the Prometheus middleware (requests by route template and
// status, latencies, sizes; a 404 on an unknown path counts under one label,
// never the raw path, since CPFs travel in paths) and registers the
// database pool collector, the count of the policy's skipped rows
// (juizado_policy_rules_skipped, PolicySkipped) and GET /metrics. Each
// server has its own registry.
func (s *Server) metrics() (echo.MiddlewareFunc, error) {
	reg := prometheus.NewRegistry()
	s.Metrics = reg
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	if sqlDB, err := s.App.SQL(); err == nil {
		reg.MustRegister(collectors.NewDBStatsCollector(sqlDB, "juizado"))
	}
	reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Namespace: "juizado", Subsystem: "policy", Name: "rules_skipped",
		Help: "Rows of casbin_rule the policy's last load skipped (they do not fit the model; GET /readyz names them)."},
		func() float64 { return float64(len(s.PolicySkipped())) }))
	m, err := newHTTPMetrics(reg)
	if err != nil {
		return nil, err
	}
	s.Router("").GET("/metrics", Anyone, echoprometheus.NewHandlerWithConfig(echoprometheus.HandlerConfig{Gatherer: reg}))
	return m.middleware, nil
}

// httpMetrics are the request metrics of echo-contrib's echoprometheus
// middleware, which the server used until each request's cost mattered
// (the gate's check, bench/README.md): the same four series, juizado_http_requests_total and the
// histograms juizado_http_request_duration_seconds, _request_size_bytes and
// _response_size_bytes, with the same help, buckets and labels (code,
// method, host, url), counted the same way (middleware). What differs is
// the lookup: echoprometheus made a slice of the label values and looked
// each of the four series up by them (hashing the values under the vector's
// lock) on every request; here the four observers of a label set are kept
// once found (series), under a key that allocates nothing.
type httpMetrics struct {
	count                       *prometheus.CounterVec
	duration, reqSize, respSize *prometheus.HistogramVec

	mu     sync.RWMutex
	series map[seriesKey]*series
}

type seriesKey struct {
	code        int
	method, url string
}

type series struct {
	count                       prometheus.Counter
	duration, reqSize, respSize prometheus.Observer
}

// maxSeries bounds the cache of label sets (the method is the client's to
// choose on a 404 or 405); past it, a label set is looked up in the vectors
// on each request, as before.
const maxSeries = 10000

// sizeBuckets are echoprometheus's buckets of the size histograms: 1, 2, 5,
// 10, 100 and 500 KiB, 1, 2.5, 5 and 10 MiB.
var sizeBuckets = []float64{1 << 10, 2 << 10, 5 << 10, 10 << 10, 100 << 10, 500 << 10, 1 << 20, 2.5 * (1 << 20), 5 << 20, 10 << 20}

// httpLabels are echoprometheus's labels, in its order. The host label is
// always "": the Host header is the client's to choose, and a label from it
// would let anyone add series without end.
var httpLabels = []string{"code", "method", "host", "url"}

func newHTTPMetrics(reg prometheus.Registerer) (*httpMetrics, error) {
	const ns, sub = "juizado", "http"
	m := &httpMetrics{
		count: prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: ns, Subsystem: sub, Name: "requests_total",
			Help: "How many HTTP requests processed, partitioned by status code and HTTP method."}, httpLabels),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{Namespace: ns, Subsystem: sub, Name: "request_duration_seconds",
			Help: "The HTTP request latencies in seconds.", Buckets: prometheus.DefBuckets}, httpLabels),
		respSize: prometheus.NewHistogramVec(prometheus.HistogramOpts{Namespace: ns, Subsystem: sub, Name: "response_size_bytes",
			Help: "The HTTP response sizes in bytes.", Buckets: sizeBuckets}, httpLabels),
		reqSize: prometheus.NewHistogramVec(prometheus.HistogramOpts{Namespace: ns, Subsystem: sub, Name: "request_size_bytes",
			Help: "The HTTP request sizes in bytes.", Buckets: sizeBuckets}, httpLabels),
		series: map[seriesKey]*series{},
	}
	for _, c := range []prometheus.Collector{m.count, m.duration, m.respSize, m.reqSize} {
		if err := reg.Register(c); err != nil {
			return nil, err
		}
	}
	return m, nil
}

// middleware counts every request but GET /metrics itself under its route
// template ("" for a path no route matches), method and status, with its
// latency, approximate request size and response size, as echoprometheus
// did, but with the status the error handler answers (metricsStatus: a
// refused input with its 4xx, 499 when the client went away), which
// echoprometheus counted as 500 for any error that was not an
// *echo.HTTPError.
func (m *httpMetrics) middleware(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if c.Path() == "/metrics" {
			return next(c)
		}
		reqSize := approximateRequestSize(c.Request())
		start := time.Now()
		err := next(c)
		elapsed := float64(time.Since(start)) / float64(time.Second)
		sr, lerr := m.seriesOf(metricsStatus(c, err), c.Request().Method, c.Path())
		if lerr != nil {
			return lerr
		}
		sr.duration.Observe(elapsed)
		sr.count.Inc()
		sr.reqSize.Observe(float64(reqSize))
		sr.respSize.Observe(float64(c.Response().Size))
		return err
	}
}

// seriesOf returns the observers of a label set, from the cache or from
// the vectors (with echoprometheus's error when a label value is refused).
func (m *httpMetrics) seriesOf(code int, method, url string) (*series, error) {
	key := seriesKey{code, method, url}
	m.mu.RLock()
	sr := m.series[key]
	m.mu.RUnlock()
	if sr != nil {
		return sr, nil
	}
	values := []string{strconv.Itoa(code), method, "", strings.ToValidUTF8(url, "\uFFFD")}
	sr = &series{}
	var err error
	if sr.duration, err = m.duration.GetMetricWithLabelValues(values...); err != nil {
		return nil, fmt.Errorf("failed to label request duration metric with values, err: %w", err)
	}
	if sr.count, err = m.count.GetMetricWithLabelValues(values...); err != nil {
		return nil, fmt.Errorf("failed to label request count metric with values, err: %w", err)
	}
	if sr.reqSize, err = m.reqSize.GetMetricWithLabelValues(values...); err != nil {
		return nil, fmt.Errorf("failed to label request size metric with values, err: %w", err)
	}
	if sr.respSize, err = m.respSize.GetMetricWithLabelValues(values...); err != nil {
		return nil, fmt.Errorf("failed to label response size metric with values, err: %w", err)
	}
	m.mu.Lock()
	if len(m.series) < maxSeries {
		m.series[key] = sr
	}
	m.mu.Unlock()
	return sr, nil
}

// approximateRequestSize is echoprometheus's size of a request: path,
// method, protocol, header names and values, host and declared body length.
func approximateRequestSize(r *http.Request) int {
	n := 0
	if r.URL != nil {
		n = len(r.URL.Path)
	}
	n += len(r.Method) + len(r.Proto)
	for name, values := range r.Header {
		n += len(name)
		for _, v := range values {
			n += len(v)
		}
	}
	n += len(r.Host)
	if r.ContentLength != -1 {
		n += int(r.ContentLength)
	}
	return n
}
