// Package app builds the application's services once, from the database,
// the clock, the court's time zone and the blocklist publisher: serve, the
// CLI commands, the seed and the test environment take them from here and
// none builds a service by hand. Today it builds the case services
// (Cases); the other services join it.
package app
