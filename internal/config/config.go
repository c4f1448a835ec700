// Package config reads Juizado's configuration from environment variables
// into one struct (docs/operations.md, "Configuration").
package config

import (
	"os"
	"path/filepath"
	"strings"
)

// Config is the whole configuration.
type Config struct {
	// Addr is where `juizado serve` listens (JUIZADO_ADDR, default ":8080").
	Addr string
	// DatabaseURL is the PostgreSQL DSN (DATABASE_URL); empty means the
	// private development cluster (pgcluster.PrivateDir).
	DatabaseURL string
	// Court is the court unit served by default, TR.OOOO (JUIZADO_COURT,
	// default "26.0100").
	Court string
	// KeyDir holds signing keys (JUIZADO_KEY_DIR, default
	// $HOME/.local/share/juizado/keys).
	KeyDir string
	// TimeZone is the court's zone for legal dates (JUIZADO_TZ, default
	// "America/Sao_Paulo").
	TimeZone string
	// PublicURL is the court's public address, printed on documents and in
	// their QR codes as PublicURL/verificar/CODE (JUIZADO_PUBLIC_URL,
	// default "http://localhost:8080").
	PublicURL string
	// TemplatesDir is a folder of the court's own document wording
	// (KIND.tmpl files replacing templates/pdf/KIND.tmpl one by one;
	// JUIZADO_TEMPLATES_DIR, default none: the embedded wording).
	TemplatesDir string
	// SecureCookies marks the session cookie Secure on every response
	// (JUIZADO_SECURE_COOKIES=1); without it, only requests that arrive
	// over TLS or with X-Forwarded-Proto: https get a Secure cookie.
	SecureCookies bool
	// TrustProxy takes the client's address from X-Forwarded-For for the
	// login lockout (JUIZADO_TRUST_PROXY=1; only behind a reverse proxy).
	TrustProxy bool
	// SpoolDir keeps the gates' check records on disk while the database
	// is unreachable (JUIZADO_SPOOL_DIR, default
	// $HOME/.local/share/juizado/spool).
	SpoolDir string
}

// FromEnv reads the configuration from the environment with its defaults.
func FromEnv() Config {
	home, _ := os.UserHomeDir()
	return Config{
		Addr:          env("JUIZADO_ADDR", ":8080"),
		DatabaseURL:   os.Getenv("DATABASE_URL"),
		Court:         env("JUIZADO_COURT", "26.0100"),
		KeyDir:        env("JUIZADO_KEY_DIR", filepath.Join(home, ".local", "share", "juizado", "keys")),
		TimeZone:      env("JUIZADO_TZ", "America/Sao_Paulo"),
		PublicURL:     env("JUIZADO_PUBLIC_URL", "http://localhost:8080"),
		TemplatesDir:  os.Getenv("JUIZADO_TEMPLATES_DIR"),
		SecureCookies: truthy(os.Getenv("JUIZADO_SECURE_COOKIES")),
		TrustProxy:    truthy(os.Getenv("JUIZADO_TRUST_PROXY")),
		SpoolDir:      env("JUIZADO_SPOOL_DIR", filepath.Join(home, ".local", "share", "juizado", "spool")),
	}
}

func env(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}

// truthy reads a boolean setting: 1, true, yes or on.
func truthy(v string) bool {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "1", "true", "yes", "on", "sim":
		return true
	}
	return false
}
