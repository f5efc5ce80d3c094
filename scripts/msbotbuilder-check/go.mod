// A separate module, so that cew itself never depends on msbotbuilder-go:
// this only measures it against Microsoft's SDK (make msbotbuilder-check).
module github.com/cewhq/cew/scripts/msbotbuilder-check

go 1.26

require (
	github.com/golang-jwt/jwt/v4 v4.1.0
	github.com/infracloudio/msbotbuilder-go v0.2.5
)

require (
	github.com/decred/dcrd/dcrec/secp256k1/v3 v3.0.0 // indirect
	github.com/goccy/go-json v0.4.8 // indirect
	github.com/lestrrat-go/backoff/v2 v2.0.7 // indirect
	github.com/lestrrat-go/blackmagic v1.0.0 // indirect
	github.com/lestrrat-go/httpcc v1.0.0 // indirect
	github.com/lestrrat-go/iter v1.0.1 // indirect
	github.com/lestrrat-go/jwx v1.1.7 // indirect
	github.com/lestrrat-go/option v1.0.0 // indirect
	github.com/pkg/errors v0.9.1 // indirect
	golang.org/x/crypto v0.0.0-20201217014255-9d1352758620 // indirect
)
