// Package app builds the application once (New): the case services
// (Cases: the case, its calendar, the match schedule, the decisions, the
// execution of bans, the case file), the blocklist publisher (blocklist.Lists),
// the fan groups and their registers, the court documents (internal/pdf's
// Service), the accounts (internal/accounts) and the audit trail, over one
// database, one clock and the court's zone. serve, every CLI command, the
// seed and the test environment take the services from here; none builds
// one by hand. The use cases that span services are App's methods, each
// one transaction (usecases.go: signing a sentence with its document,
// adding a user with the distribution of the pending cases, the sentence
// preview). Model: gitea's services/issue.NewIssue (several writes in one
// db.WithTx, called by both routers) and WTF Dial's cmd/wtfd (each service
// built once).
package app
