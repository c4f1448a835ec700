package gate

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"testing"
	"time"
)

// benchSpool is n spool lines as Check appends them at a stadium gate: 11
// digit CPFs, one in 50 blocked, an instant every 37 µs, the versions of
// two courts.
func benchSpool(n int) []byte {
	vs := appendVersions(nil, map[string]int64{"26.0100": 81234, "19.0001": 77})
	at := time.Date(2025, 6, 10, 18, 0, 0, 0, time.UTC)
	var b []byte
	for i := range n {
		r := Record{CPF: fmt.Sprintf("%011d", 52998224725+int64(i)*7919), CheckedAt: at.Add(time.Duration(i) * 37 * time.Microsecond),
			Blocked: i%50 == 0, versionsJSON: vs}
		b = appendRecord(b, &r)
	}
	return b
}

// Issue 20, "Speed": the gate agent's upload reads every spool line and
// encodes the batch body while the gate answers checks on the same CPUs.
// BenchmarkUploadParse reads 10,000 lines (one part) as uploadFile does and
// encodes the body; reported per record.
//
//	go test -run '^$' -bench BenchmarkUploadParse ./registry/gate/
func BenchmarkUploadParse(b *testing.B) {
	const n = MaxCheckBatch
	spool := benchSpool(n)
	b.Run("encoding_json", func(b *testing.B) {
		b.SetBytes(int64(len(spool)))
		for range b.N {
			sc := bufio.NewScanner(bytes.NewReader(spool))
			body := checkBatch{BatchID: "x", Device: "portao-1", Records: []batchRecord{}}
			for sc.Scan() {
				var r Record
				if json.Unmarshal(sc.Bytes(), &r) == nil {
					body.Records = append(body.Records, batchRecord{CPF: r.CPF, CheckedAt: r.CheckedAt, Version: r.Versions["26.0100"], Blocked: r.Blocked})
				}
			}
			if len(body.Records) != n {
				b.Fatalf("%d records", len(body.Records))
			}
			if _, err := json.Marshal(body); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/record")
	})
}
