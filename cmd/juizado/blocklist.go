package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/juizado/juizado/internal/config"
	"github.com/juizado/juizado/registry/blocklist"
	"github.com/spf13/cobra"
	"gorm.io/gorm"
)

// errInvalid makes `blocklist verify` exit non-zero after printing "invalid".
var errInvalid = errors.New("invalid signature")

func blocklistCmd() *cobra.Command {
	cmd := &cobra.Command{Use: "blocklist", Short: "Gate blocklist: signing keys, offline verification, refresh"}
	var keyB64, keyFile string
	verify := &cobra.Command{
		Use:   "verify FILE SIGNATURE [--key BASE64 | --key-file PATH]",
		Short: "Check offline that FILE (a snapshot or feed page as downloaded) is signed by the court; prints valid or invalid",
		Long: `Verifies the Ed25519 signature of FILE's exact bytes. SIGNATURE is the value of the
X-Juizado-Signature header (base64), or the path of a file holding it. The public key is
--key (base64 of the 32 bytes, as GET /api/v1/blocklist/key lists it), --key-file (a file
with that base64 or a PEM public key), or by default every key in JUIZADO_KEY_DIR.
Exit status 0 when valid, 1 when invalid.`,
		Args: cobra.ExactArgs(2),
		RunE: func(c *cobra.Command, args []string) error {
			body, err := os.ReadFile(args[0])
			if err != nil {
				return err
			}
			sig := args[1]
			if b, err := os.ReadFile(sig); err == nil {
				sig = strings.TrimSpace(string(b))
			}
			var keys []blocklist.PublicKey
			switch {
			case keyB64 != "" && keyFile != "":
				return fmt.Errorf("use --key or --key-file, not both")
			case keyB64 != "":
				k, err := blocklist.ParsePublicKey([]byte(keyB64))
				if err != nil {
					return fmt.Errorf("--key: %w", err)
				}
				keys = []blocklist.PublicKey{k}
			case keyFile != "":
				b, err := os.ReadFile(keyFile)
				if err != nil {
					return err
				}
				k, err := blocklist.ParsePublicKey(b)
				if err != nil {
					return fmt.Errorf("--key-file: %w", err)
				}
				keys = []blocklist.PublicKey{k}
			default:
				dir := config.FromEnv().KeyDir
				if _, err := os.Stat(dir); err != nil {
					return fmt.Errorf("no --key and no key directory %s (JUIZADO_KEY_DIR): %w", dir, err)
				}
				keys, err = (&blocklist.KeyRing{Dir: dir}).AllKeys()
				if err != nil {
					return err
				}
			}
			if k, ok := blocklist.Verify(body, sig, keys); ok {
				fmt.Fprintln(c.OutOrStdout(), "valid")
				fmt.Fprintln(c.ErrOrStderr(), "key", k.ID)
				return nil
			}
			fmt.Fprintln(c.OutOrStdout(), "invalid")
			return errInvalid
		},
	}
	verify.Flags().StringVar(&keyB64, "key", "", "public key, base64 of the 32 bytes")
	verify.Flags().StringVar(&keyFile, "key-file", "", "file with the public key (base64 or PEM)")
	cmd.AddCommand(verify)

	cmd.AddCommand(&cobra.Command{
		Use:   "rotate-key",
		Short: "Make a new signing key in JUIZADO_KEY_DIR; the previous public key stays listed for 7 days (restart serve to sign with the new key)",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			ring := &blocklist.KeyRing{Dir: config.FromEnv().KeyDir}
			id, err := ring.Rotate(time.Now())
			if err != nil {
				return err
			}
			fmt.Fprintln(c.OutOrStdout(), "new key", id)
			return printKeys(c, ring)
		},
	})
	cmd.AddCommand(&cobra.Command{
		Use:   "key",
		Short: "Print the public keys of JUIZADO_KEY_DIR (id, base64, not_after), creating the key on first use",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			return printKeys(c, &blocklist.KeyRing{Dir: config.FromEnv().KeyDir})
		},
	})
	cmd.AddCommand(&cobra.Command{
		Use:   "refresh",
		Short: "Make a new blocklist version now if the bans in force changed (serve does it every minute)",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			return withOpenDB(func(ctx context.Context, g *gorm.DB, cfg config.Config) error {
				a, err := openApp(g, cfg)
				if err != nil {
					return err
				}
				lists := a.Lists
				if err := lists.Refresh(ctx); err != nil {
					return err
				}
				v, err := lists.Latest(ctx)
				if err != nil {
					return err
				}
				fmt.Fprintf(c.OutOrStdout(), "version %d generated_at %s\n", v.Version, v.GeneratedAt.Format(time.RFC3339))
				return nil
			})
		},
	})
	return cmd
}

func printKeys(c *cobra.Command, ring *blocklist.KeyRing) error {
	keys, err := ring.Keys(time.Now())
	if err != nil {
		return err
	}
	for _, k := range keys {
		na := "current"
		if k.NotAfter != nil {
			na = "not_after " + k.NotAfter.Format(time.RFC3339)
		}
		fmt.Fprintf(c.OutOrStdout(), "%s %s %s\n", k.ID, k.PublicKey, na)
	}
	return nil
}
