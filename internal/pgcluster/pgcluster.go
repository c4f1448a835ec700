// Package pgcluster runs a private PostgreSQL cluster from Debian's
// `postgresql` package: the development cluster of `make run` and the
// throwaway cluster of `make test`. It is socket-only (no TCP), owned by the
// `postgres` user when the caller is root (initdb refuses root), and installs
// the package with apt-get when it is missing and the caller is root.
package pgcluster

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Port is the port number the clusters use. They listen on no TCP address,
// so the number only names the socket file inside the cluster's own folder.
const Port = 5432

// Cluster is a PostgreSQL data folder whose socket lives in the folder itself.
type Cluster struct {
	// Dir is the absolute data folder (PGDATA); the socket is Dir/.s.PGSQL.5432.
	Dir string
	bin string
	// asPostgres is true when the caller is root: commands run as `postgres`.
	asPostgres bool
}

// FindBin returns the newest /usr/lib/postgresql/N/bin that holds initdb, or
// an error when PostgreSQL's server is not installed.
func FindBin() (string, error) {
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin/initdb")
	if len(dirs) == 0 {
		if p, err := exec.LookPath("initdb"); err == nil {
			return filepath.Dir(p), nil
		}
		return "", errors.New("pgcluster: PostgreSQL server not found (Debian package postgresql)")
	}
	sort.Slice(dirs, func(i, j int) bool { return version(dirs[i]) > version(dirs[j]) })
	return filepath.Dir(dirs[0]), nil
}

func version(initdb string) int {
	v, _ := strconv.Atoi(filepath.Base(filepath.Dir(filepath.Dir(initdb))))
	return v
}

// EnsureInstalled installs Debian's postgresql package with apt-get when the
// server is missing. Only root can install; others get an error that says
// what to install.
func EnsureInstalled() (string, error) {
	if bin, err := FindBin(); err == nil {
		return bin, nil
	}
	if os.Geteuid() != 0 {
		return "", errors.New("pgcluster: PostgreSQL is not installed; run: sudo apt-get install -y postgresql")
	}
	fmt.Fprintln(os.Stderr, "pgcluster: installing Debian's postgresql package")
	for _, args := range [][]string{{"update"}, {"install", "-y", "--no-install-recommends", "postgresql", "postgresql-contrib"}} {
		cmd := exec.Command("apt-get", args...)
		cmd.Env = append(os.Environ(), "DEBIAN_FRONTEND=noninteractive")
		cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
		if err := cmd.Run(); err != nil {
			return "", fmt.Errorf("pgcluster: apt-get %s: %w", args[0], err)
		}
	}
	return FindBin()
}

// Open returns the cluster at dir without touching it.
func Open(dir string) (*Cluster, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	bin, err := EnsureInstalled()
	if err != nil {
		return nil, err
	}
	return &Cluster{Dir: abs, bin: bin, asPostgres: os.Geteuid() == 0}, nil
}

// Initialized reports whether the data folder holds a cluster.
func (c *Cluster) Initialized() bool {
	_, err := os.Stat(filepath.Join(c.Dir, "PG_VERSION"))
	return err == nil
}

// Init creates the cluster (initdb, UTF-8, trust on the socket, superuser
// `postgres`) when the folder holds none. Parent folders must be
// traversable by the postgres user when the caller is root.
func (c *Cluster) Init() error {
	if c.Initialized() {
		return nil
	}
	// Parents must be traversable by the postgres user; the folder is its own.
	if err := os.MkdirAll(filepath.Dir(c.Dir), 0o755); err != nil {
		return err
	}
	if err := os.Mkdir(c.Dir, 0o700); err != nil && !os.IsExist(err) {
		return err
	}
	if c.asPostgres {
		if err := exec.Command("chown", "postgres:postgres", c.Dir).Run(); err != nil {
			return fmt.Errorf("pgcluster: chown %s: %w", c.Dir, err)
		}
	}
	out, err := c.run("initdb", "-D", c.Dir, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--locale=C.UTF-8", "--no-sync")
	if err != nil {
		return fmt.Errorf("pgcluster: initdb: %v: %s", err, out)
	}
	conf := "\n# juizado private cluster\nlisten_addresses = ''\nunix_socket_directories = '" + c.Dir + "'\nport = " + strconv.Itoa(Port) +
		"\nmax_connections = 300\nshared_buffers = 128MB\n"
	f, err := os.OpenFile(filepath.Join(c.Dir, "postgresql.conf"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = f.WriteString(conf)
	return err
}

// Running reports whether the cluster's server is up.
func (c *Cluster) Running() bool {
	_, err := c.run("pg_ctl", "-D", c.Dir, "status")
	return err == nil
}

// Start starts the server when it is not running and waits until it accepts
// connections. fast turns fsync off (throwaway test clusters).
func (c *Cluster) Start(fast bool) error {
	if c.Running() {
		return nil
	}
	opts := ""
	if fast {
		opts = "-c fsync=off -c synchronous_commit=off -c full_page_writes=off"
	}
	out, err := c.run("pg_ctl", "-D", c.Dir, "-l", filepath.Join(c.Dir, "server.log"), "-w", "-t", "60", "-o", opts, "start")
	if err != nil {
		log, _ := os.ReadFile(filepath.Join(c.Dir, "server.log"))
		return fmt.Errorf("pgcluster: pg_ctl start: %v: %s\n%s", err, out, lastLines(log, 20))
	}
	return nil
}

// Stop stops the server (fast shutdown); stopping a stopped cluster is no error.
func (c *Cluster) Stop() error {
	if !c.Running() {
		return nil
	}
	out, err := c.run("pg_ctl", "-D", c.Dir, "-m", "fast", "-w", "stop")
	if err != nil {
		return fmt.Errorf("pgcluster: pg_ctl stop: %v: %s", err, out)
	}
	return nil
}

// DSN returns a libpq key/value connection string for database db over the
// cluster's socket as the superuser `postgres`.
func (c *Cluster) DSN(db string) string {
	return fmt.Sprintf("host=%s port=%d user=postgres dbname=%s sslmode=disable", c.Dir, Port, db)
}

func (c *Cluster) run(name string, args ...string) (string, error) {
	path := filepath.Join(c.bin, name)
	var cmd *exec.Cmd
	if c.asPostgres {
		cmd = exec.Command("runuser", append([]string{"-u", "postgres", "--", path}, args...)...)
	} else {
		cmd = exec.Command(path, args...)
	}
	cmd.Dir = "/"
	var buf bytes.Buffer
	cmd.Stdout, cmd.Stderr = &buf, &buf
	done := make(chan error, 1)
	if err := cmd.Start(); err != nil {
		return "", err
	}
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		return buf.String(), err
	case <-time.After(2 * time.Minute):
		_ = cmd.Process.Kill()
		return buf.String(), fmt.Errorf("%s timed out", name)
	}
}

func lastLines(b []byte, n int) string {
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// PrivateDir returns the data folder of the development cluster that `make
// run` sets up and that every command uses when DATABASE_URL is unset:
// $JUIZADO_PGDATA when set; /var/lib/juizado/postgres for root (a folder the
// postgres user can reach); otherwise ~/.local/share/juizado/postgres.
func PrivateDir() string {
	if d := os.Getenv("JUIZADO_PGDATA"); d != "" {
		return d
	}
	if os.Geteuid() == 0 {
		return "/var/lib/juizado/postgres"
	}
	home, err := os.UserHomeDir()
	if err != nil {
		if u, uerr := user.Current(); uerr == nil {
			home = u.HomeDir
		}
	}
	return filepath.Join(home, ".local", "share", "juizado", "postgres")
}

// Configure appends settings (name → value, written as postgresql.conf
// lines, values quoted) to the cluster's postgresql.conf; a later line wins
// over an earlier one. They take effect at the next start.
func (c *Cluster) Configure(settings map[string]string) error {
	names := make([]string, 0, len(settings))
	for k := range settings {
		names = append(names, k)
	}
	sort.Strings(names)
	var b strings.Builder
	b.WriteString("\n")
	for _, k := range names {
		fmt.Fprintf(&b, "%s = '%s'\n", k, strings.ReplaceAll(settings[k], "'", "''"))
	}
	f, err := os.OpenFile(filepath.Join(c.Dir, "postgresql.conf"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = f.WriteString(b.String())
	return err
}

// InitStandby makes the cluster at c.Dir a streaming-replication standby
// of primary with PostgreSQL's own tools: pg_basebackup -R (the copy of the
// primary's data folder, standby.signal and primary_conninfo naming
// application_name name, which the primary's synchronous_standby_names
// refers to) with the WAL streamed during the copy. The standby keeps its
// socket in its own folder. The primary must be running; c.Dir must not
// hold a cluster.
func (c *Cluster) InitStandby(primary *Cluster, name string) error {
	if c.Initialized() {
		return fmt.Errorf("pgcluster: %s already holds a cluster", c.Dir)
	}
	if err := os.MkdirAll(filepath.Dir(c.Dir), 0o755); err != nil {
		return err
	}
	if err := os.Mkdir(c.Dir, 0o700); err != nil && !os.IsExist(err) {
		return err
	}
	if c.asPostgres {
		if err := exec.Command("chown", "postgres:postgres", c.Dir).Run(); err != nil {
			return fmt.Errorf("pgcluster: chown %s: %w", c.Dir, err)
		}
	}
	conn := fmt.Sprintf("host=%s port=%d user=postgres application_name=%s", primary.Dir, Port, name)
	out, err := c.run("pg_basebackup", "-D", c.Dir, "-R", "-X", "stream", "-c", "fast", "--no-sync", "-d", conn)
	if err != nil {
		return fmt.Errorf("pgcluster: pg_basebackup: %v: %s", err, out)
	}
	// The primary's socket lock file and log are in its folder, so they came
	// with the copy: the standby's start would take the lock for the
	// primary's (the socket lives beside it here).
	locks, _ := filepath.Glob(filepath.Join(c.Dir, ".s.PGSQL.*.lock"))
	for _, f := range append(locks, filepath.Join(c.Dir, "server.log")) {
		if err := os.Remove(f); err != nil && !os.IsNotExist(err) {
			return err
		}
	}
	// The copied postgresql.conf puts the socket in the primary's folder.
	return c.Configure(map[string]string{"unix_socket_directories": c.Dir, "cluster_name": name})
}

// Promote ends a standby's recovery and makes it a primary that takes
// writes (pg_ctl promote), waiting until it does.
func (c *Cluster) Promote() error {
	out, err := c.run("pg_ctl", "-D", c.Dir, "-w", "-t", "60", "promote")
	if err != nil {
		return fmt.Errorf("pgcluster: pg_ctl promote: %v: %s", err, out)
	}
	return nil
}

// Kill ends the server as a crash would: SIGKILL to the postmaster and
// every one of its processes at once (no shutdown checkpoint, nothing sent
// to clients or standbys), then removes the shared memory segment it left.
// Tests use it to make the primary die.
func (c *Cluster) Kill() error {
	pidFile, err := os.ReadFile(filepath.Join(c.Dir, "postmaster.pid"))
	if err != nil {
		return fmt.Errorf("pgcluster: kill: %w", err)
	}
	lines := strings.Split(string(pidFile), "\n")
	pid, err := strconv.Atoi(strings.TrimSpace(lines[0]))
	if err != nil || pid <= 0 {
		return fmt.Errorf("pgcluster: kill: no pid in postmaster.pid")
	}
	// Stopped, the postmaster forks no process between the listing and the kill.
	if err := syscall.Kill(pid, syscall.SIGSTOP); err != nil {
		return fmt.Errorf("pgcluster: kill %d: %w", pid, err)
	}
	victims := append(children(pid), pid)
	for _, p := range victims {
		_ = syscall.Kill(p, syscall.SIGKILL)
	}
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		alive := false
		for _, p := range victims {
			if syscall.Kill(p, 0) == nil && !zombie(p) {
				alive = true
			}
		}
		if !alive {
			break
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("pgcluster: kill: processes of %d still alive", pid)
		}
	}
	// Line 7 of postmaster.pid: "shmkey shmid".
	if len(lines) > 6 {
		if f := strings.Fields(lines[6]); len(f) == 2 {
			_ = exec.Command("ipcrm", "-m", f[1]).Run()
		}
	}
	return nil
}

// children returns the processes whose parent is pid (Linux /proc).
func children(pid int) []int {
	var out []int
	dirs, _ := os.ReadDir("/proc")
	for _, d := range dirs {
		p, err := strconv.Atoi(d.Name())
		if err != nil {
			continue
		}
		if ppid, _ := procStat(p); ppid == pid {
			out = append(out, p)
		}
	}
	return out
}

// procStat returns the parent pid and the state letter of process p from
// /proc/p/stat (0 and "" when it is gone).
func procStat(p int) (int, string) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", p))
	if err != nil {
		return 0, ""
	}
	// pid (comm) state ppid ...; comm may hold spaces and parentheses.
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return 0, ""
	}
	f := strings.Fields(s[i+1:])
	if len(f) < 2 {
		return 0, ""
	}
	ppid, _ := strconv.Atoi(f[1])
	return ppid, f[0]
}

func zombie(p int) bool {
	_, state := procStat(p)
	return state == "Z" || state == ""
}
