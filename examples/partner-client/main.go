// Command partner-client streams a company's live uplinks from a Fieldhub
// portal over its partner API (fieldhub.v1.TagDataService/Watch), with the
// typed client of the sdk module (sdk/partner) alone, as a partner's
// program would:
//
//	go run ./examples/partner-client -url http://127.0.0.1:8080 -email worker@example.com -password '...'
//	go run ./examples/partner-client -url http://127.0.0.1:8080 -token "$TOKEN" -deveui 70B3D57ED0000001 -grpc
//
// Each uplink is printed as a line: time, DevEUI, node name and values.
// It signs in with -email and -password (POST /api/users/authenticate)
// unless -token gives an access token; -company names a company for a
// SuperAdmin; -deveui (comma-separated) keeps only those nodes; -n stops
// after that many uplinks; -grpc calls with the gRPC protocol instead of
// Connect.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"connectrpc.com/connect"

	"github.com/fieldhub/fieldhub/sdk/client"
	"github.com/fieldhub/fieldhub/sdk/partner"
	fieldhubv1 "github.com/fieldhub/fieldhub/sdk/partner/fieldhubv1"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout); err != nil && !errors.Is(err, context.Canceled) {
		fmt.Fprintln(os.Stderr, "partner-client:", err)
		os.Exit(1)
	}
}

// run parses args and streams uplinks to out until ctx ends, the stream
// does, or -n uplinks have come.
func run(ctx context.Context, args []string, out io.Writer) error {
	fs := flag.NewFlagSet("partner-client", flag.ContinueOnError)
	url := fs.String("url", "http://127.0.0.1:8080", "the portal's address")
	token := fs.String("token", "", "a user's access token (else -email and -password sign in)")
	email := fs.String("email", "", "the user to sign in as")
	password := fs.String("password", "", "the user's password")
	company := fs.Int64("company", 0, "the company to watch (a SuperAdmin's choice; default the user's own)")
	deveuis := fs.String("deveui", "", "comma-separated DevEUIs to watch (default every node)")
	count := fs.Int("n", 0, "stop after this many uplinks (0: never)")
	grpc := fs.Bool("grpc", false, "call with the gRPC protocol")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *token == "" {
		if *email == "" {
			return errors.New("give -token, or -email and -password")
		}
		rest := client.New(*url, nil)
		if _, err := rest.Login(ctx, *email, *password); err != nil {
			return fmt.Errorf("sign in: %w", err)
		}
		*token, _ = rest.Tokens()
	}
	var opts []partner.Option
	if *grpc {
		opts = append(opts, partner.GRPC())
	}
	c := partner.New(*url, *token, opts...)
	req := &fieldhubv1.WatchRequest{CompanyId: *company}
	for _, eui := range strings.Split(*deveuis, ",") {
		if eui = strings.TrimSpace(eui); eui != "" {
			req.DevEuis = append(req.DevEuis, eui)
		}
	}
	stream, err := c.TagData.Watch(ctx, connect.NewRequest(req))
	if err != nil {
		return err
	}
	defer stream.Close()
	for n := 0; *count == 0 || n < *count; n++ {
		if !stream.Receive() {
			return stream.Err()
		}
		u := stream.Msg().GetUplink()
		values, _ := json.Marshal(u.GetValues().AsMap())
		fmt.Fprintf(out, "%s %s %s %s\n", u.GetTime().AsTime().Format("2006-01-02T15:04:05.000Z07:00"), u.GetDevEui(), u.GetName(), values)
	}
	return nil
}
