package wire

import (
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
)

// Headers of a signed body: the id of the key (KeyID) and the base64 of
// the Ed25519 signature over the body's bytes as sent (before any content
// coding). ../shared/API.md "Public list and blocklist".
const (
	HeaderKeyID     = "X-Juizado-Key-Id"
	HeaderSignature = "X-Juizado-Signature"
)

// KeyID is the id of a court's blocklist key: the hex of the first 8 bytes
// of the SHA-256 of its 32 public bytes (16 hex digits).
func KeyID(pub ed25519.PublicKey) string {
	h := sha256.Sum256(pub)
	return hex.EncodeToString(h[:8])
}

// RotationPrefix starts the message a rotated-out key signs to endorse its
// successor (RotationMessage).
const RotationPrefix = "juizado-blocklist-key-rotation-v1\n"

// RotationMessage is what the previous key signs when the court rotates to
// pub: RotationPrefix followed by the base64 of pub's 32 bytes. The court
// signs it (blocklist.KeyRing.Rotate) and the gate agent verifies it.
func RotationMessage(pub ed25519.PublicKey) []byte {
	return []byte(RotationPrefix + base64.StdEncoding.EncodeToString(pub))
}
