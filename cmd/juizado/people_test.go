package main

import (
	"strings"
	"testing"

	"github.com/juizado/juizado/internal/accounts"
)

// juizado user create --full-name --title stores the name and office that
// signature blocks show (issue 30, item 4); a full name with a control
// character is refused on its flag, nothing created.
func TestUserCreateFullNameAndTitle(t *testing.T) {
	g, run := cliEnv(t)
	out, err := run("uma senha da juíza\n", "user", "create", "--name", "juiza-ana", "--role", "judge", "--full-name", "Ana Paula Ribeiro", "--title", "Juíza de Direito", "--password-stdin")
	if err != nil {
		t.Fatalf("%v %s", err, out)
	}
	var u accounts.User
	if err := g.Where("name = 'juiza-ana'").Find(&u).Error; err != nil || u.FullName == nil || *u.FullName != "Ana Paula Ribeiro" || u.Title == nil || *u.Title != "Juíza de Direito" || u.DisplayName() != "Ana Paula Ribeiro" {
		t.Fatalf("stored %+v %v", u, err)
	}
	names, err := accounts.UserNames(t.Context(), g, []int64{u.ID})
	if err != nil || names[u.ID] != "Ana Paula Ribeiro" {
		t.Errorf("UserNames: %v %v, want the full name", names, err)
	}
	if _, err := run("uma senha da juíza\n", "user", "create", "--name", "juiza-bia", "--role", "judge", "--full-name", "Bia\u202e Souza", "--password-stdin"); err == nil || !strings.Contains(err.Error(), "--full-name") {
		t.Errorf("full name with a bidi control: %v", err)
	}
	var n int64
	g.Raw("SELECT count(*) FROM users WHERE name = 'juiza-bia'").Scan(&n)
	if n != 0 {
		t.Errorf("juiza-bia was created")
	}
}
