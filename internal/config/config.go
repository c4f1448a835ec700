// Package config reads Juizado's configuration from environment variables
// into one struct (README "Configuration").
package config

import (
	"os"
	"path/filepath"
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
}

// FromEnv reads the configuration from the environment with its defaults.
func FromEnv() Config {
	home, _ := os.UserHomeDir()
	return Config{
		Addr:         env("JUIZADO_ADDR", ":8080"),
		DatabaseURL:  os.Getenv("DATABASE_URL"),
		Court:        env("JUIZADO_COURT", "26.0100"),
		KeyDir:       env("JUIZADO_KEY_DIR", filepath.Join(home, ".local", "share", "juizado", "keys")),
		TimeZone:     env("JUIZADO_TZ", "America/Sao_Paulo"),
		PublicURL:    env("JUIZADO_PUBLIC_URL", "http://localhost:8080"),
		TemplatesDir: os.Getenv("JUIZADO_TEMPLATES_DIR"),
	}
}

func env(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}
