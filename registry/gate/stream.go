package gate

import (
	"bytes"
	"crypto/ed25519"
	"crypto/sha512"
	"encoding/base64"
	"errors"
	"io"
	"strings"

	"filippo.io/edwards25519"
)

// errBadSignature is a signature that does not verify.
var errBadSignature = errors.New("bad signature")

// verifyStream checks the Ed25519 signature sig by pub over the bytes read
// from r (RFC 8032 §5.1.7, cofactorless, as crypto/ed25519.Verify: S
// canonical, [S]B = R + [k]A with k = SHA-512(R || A || M)), reading them
// once, so that a snapshot need not be held in memory (213 MB at 1,000,000
// entries). It returns errBadSignature, or the error of r.
func verifyStream(pub ed25519.PublicKey, sig []byte, r io.Reader) error {
	if len(pub) != ed25519.PublicKeySize || len(sig) != ed25519.SignatureSize {
		return errBadSignature
	}
	A, err := new(edwards25519.Point).SetBytes(pub)
	if err != nil {
		return errBadSignature
	}
	S, err := edwards25519.NewScalar().SetCanonicalBytes(sig[32:])
	if err != nil {
		return errBadSignature
	}
	h := sha512.New()
	h.Write(sig[:32])
	h.Write(pub)
	if _, err := io.Copy(h, r); err != nil {
		return err
	}
	k, err := edwards25519.NewScalar().SetUniformBytes(h.Sum(nil))
	if err != nil {
		return errBadSignature
	}
	minusA := new(edwards25519.Point).Negate(A)
	R := new(edwards25519.Point).VarTimeDoubleScalarBaseMult(k, minusA, S)
	if !bytes.Equal(R.Bytes(), sig[:32]) {
		return errBadSignature
	}
	return nil
}

// verifySigned is verify for a body read from r: the key named by s must be
// trusted and the signature must be over the exact bytes of r.
func verifySigned(s signed, trusted map[string]ed25519.PublicKey, r io.Reader) error {
	if err := unsigned(s); err != nil {
		return err
	}
	k, ok := trusted[s.KeyID]
	if !ok {
		return refused("signed by unknown key %q", s.KeyID)
	}
	sig, err := base64.StdEncoding.DecodeString(strings.TrimSpace(s.Signature))
	if err != nil {
		return refused("signature does not verify with key %s", s.KeyID)
	}
	if err := verifyStream(k, sig, r); err != nil {
		if errors.Is(err, errBadSignature) {
			return refused("signature does not verify with key %s", s.KeyID)
		}
		return err
	}
	return nil
}
