package slack

import (
	"encoding/json"
	"net/http/httptest"
	"net/url"
	"reflect"
	"strconv"
	"strings"
	"testing"

	slackapi "github.com/slack-go/slack"
	"github.com/slack-go/slack/slackevents"
)

// The inbound payloads in testdata are read by the adapter's own small
// types; these tests check that slack-go's parsers read the same fields
// from them, so the adapter and the library agree on real Slack payloads.
func TestEventPayloadsAgreeWithSlackGo(t *testing.T) {
	tests := []struct {
		file string
		// want is the inner event as the adapter reads it.
		want inboundEvent
	}{
		{"events/app_mention.json", inboundEvent{Type: slackevents.AppMention, User: testUser,
			Text: "<@U0LAN0Z89> What is the minimum trench depth for DC cables?", TS: "1515449522.000016", Channel: testChannel, Team: testTeam}},
		{"events/message_im.json", inboundEvent{Type: slackevents.Message, User: testUser,
			Text: "Which cable size is specified for the inverter AC output?", TS: "1700000123.000200", Channel: "D0PNCRP9N",
			ChannelType: "im", Team: testTeam}},
		{"events/thread_reply.json", inboundEvent{Type: slackevents.Message, User: testUser, Text: "and for AC cables?",
			TS: "1515449600.000300", ThreadTS: "1515449522.000016", Channel: testChannel, ChannelType: "channel", Team: testTeam}},
		{"events/bot_message.json", inboundEvent{Type: slackevents.Message, Subtype: "bot_message", BotID: "B0REGSYNC1",
			Text: "Nightly register sync finished: 412 documents, 3 new revisions.", TS: "1700000200.000100",
			ThreadTS: "1515449522.000016", Channel: testChannel, ChannelType: "channel"}},
		{"events/own_message.json", inboundEvent{Type: slackevents.Message, User: testBotUser, BotID: testBotID,
			Text: "The minimum trench depth for DC cables is 800 mm from finished ground level [S1].", TS: "1515449530.000100",
			ThreadTS: "1515449522.000016", Channel: testChannel, ChannelType: "channel", Team: testTeam}},
		{"events/message_changed.json", inboundEvent{Type: slackevents.Message, Subtype: "message_changed",
			TS: "1515449700.000400", Channel: testChannel, ChannelType: "channel"}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			raw := readTestdata(t, tt.file)
			var env eventEnvelope
			if err := json.Unmarshal(raw, &env); err != nil {
				t.Fatal(err)
			}
			if env.Type != slackevents.CallbackEvent || env.TeamID != testTeam || env.EventID == "" {
				t.Errorf("envelope = %+v", env)
			}
			got := env.Event
			got.Edited = nil
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("adapter reads %+v\nwant %+v", got, tt.want)
			}

			parsed, err := slackevents.ParseEvent(raw, slackevents.OptionNoVerifyToken())
			if err != nil {
				t.Fatalf("slack-go: %v", err)
			}
			if parsed.TeamID != env.TeamID || parsed.InnerEvent.Type != string(env.Event.Type) {
				t.Errorf("slack-go reads team %q type %q", parsed.TeamID, parsed.InnerEvent.Type)
			}
			var lib inboundEvent
			switch ev := parsed.InnerEvent.Data.(type) {
			case *slackevents.AppMentionEvent:
				lib = inboundEvent{Type: slackevents.AppMention, User: ev.User, Text: ev.Text, TS: ev.TimeStamp,
					ThreadTS: ev.ThreadTimeStamp, Channel: ev.Channel, BotID: ev.BotID}
			case *slackevents.MessageEvent:
				lib = inboundEvent{Type: slackevents.Message, Subtype: ev.SubType, User: ev.User, Text: ev.Text,
					TS: ev.TimeStamp, ThreadTS: ev.ThreadTimeStamp, Channel: ev.Channel, ChannelType: ev.ChannelType, BotID: ev.BotID}
				if ev.SubType == "message_changed" {
					// slack-go lifts the edited message's fields to the top.
					lib.User, lib.Text, lib.ThreadTS, lib.TS = "", "", "", env.Event.TS
				}
			default:
				t.Fatalf("slack-go parsed %T", ev)
			}
			lib.Team = env.Event.Team // slack-go does not keep the inner team
			if !reflect.DeepEqual(lib, got) {
				t.Errorf("slack-go reads %+v\nadapter reads %+v", lib, got)
			}
		})
	}
}

func TestURLVerificationPayloadAgreesWithSlackGo(t *testing.T) {
	raw := readTestdata(t, "events/url_verification.json")
	parsed, err := slackevents.ParseEvent(raw, slackevents.OptionNoVerifyToken())
	if err != nil {
		t.Fatal(err)
	}
	var env eventEnvelope
	if err := json.Unmarshal(raw, &env); err != nil {
		t.Fatal(err)
	}
	lib, ok := parsed.Data.(*slackevents.EventsAPIURLVerificationEvent)
	if !ok || env.Type != slackevents.URLVerification || lib.Challenge != env.Challenge {
		t.Errorf("slack-go %+v, adapter %+v", parsed.Data, env)
	}
}

func TestCommandPayloadsAgreeWithSlackGo(t *testing.T) {
	for _, file := range []string{"commands/question.form", "commands/status.form", "commands/help.form", "commands/empty.form"} {
		t.Run(file, func(t *testing.T) {
			raw := strings.TrimSpace(string(readTestdata(t, file)))
			req := httptest.NewRequest("POST", "/slack/commands", strings.NewReader(raw))
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			lib, err := slackapi.SlashCommandParse(req)
			if err != nil {
				t.Fatal(err)
			}
			form, err := url.ParseQuery(raw)
			if err != nil {
				t.Fatal(err)
			}
			got := commandFromForm(form)
			lib.Token, lib.TeamDomain, lib.ChannelName, lib.UserName = "", "", "", "" // not read by the adapter
			if got != lib {
				t.Errorf("adapter reads %+v\nslack-go reads %+v", got, lib)
			}
			if got.Command != "/cew" || got.TriggerID == "" || got.ResponseURL == "" || got.TeamID != testTeam {
				t.Errorf("command = %+v", got)
			}
		})
	}
}

func TestInteractionPayloadsRoundTrip(t *testing.T) {
	tests := []struct {
		file       string
		wantAction string
		wantValue  string
	}{
		{"interactivity/feedback_up.json", actionFeedbackUp, "ans-Ev0LAN670R"},
		{"interactivity/feedback_down.json", actionFeedbackDown, "ans-Ev0LAN670R"},
		{"interactivity/share.json", actionShare,
			`{"id":"ans-command:13345224609.738474920.8088930838d88f008e0","q":"What is the minimum trench depth for DC cables?"}`},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			body := interactionBody(t, tt.file, "")
			req := httptest.NewRequest("POST", "/slack/interactivity", strings.NewReader(string(body)))
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			cb, err := slackapi.InteractionCallbackParse(req)
			if err != nil {
				t.Fatal(err)
			}
			if cb.Type != slackapi.InteractionTypeBlockActions || len(cb.ActionCallback.BlockActions) != 1 {
				t.Fatalf("callback = %+v", cb)
			}
			act := cb.ActionCallback.BlockActions[0]
			if act.ActionID != tt.wantAction || act.Value != tt.wantValue || cb.Team.ID != testTeam ||
				cb.User.ID != testUser || channelOf(cb) != testChannel || cb.ResponseURL == "" {
				t.Errorf("action %q value %q team %q user %q channel %q", act.ActionID, act.Value, cb.Team.ID, cb.User.ID, channelOf(cb))
			}
			// Encoding what slack-go decoded and decoding it again changes
			// nothing the adapter reads.
			again, err := json.Marshal(cb)
			if err != nil {
				t.Fatal(err)
			}
			var cb2 slackapi.InteractionCallback
			if err := json.Unmarshal(again, &cb2); err != nil {
				t.Fatal(err)
			}
			if read(cb2) != read(cb) {
				t.Errorf("round trip changed the callback: %v, was %v", read(cb2), read(cb))
			}
		})
	}
}

// read is what the adapter reads of a click.
func read(cb slackapi.InteractionCallback) [9]string {
	act := cb.ActionCallback.BlockActions[0]
	return [9]string{string(cb.Type), act.ActionID, act.Value, cb.ResponseURL, cb.Team.ID, cb.User.ID, channelOf(cb),
		cb.Container.ThreadTs, strconv.FormatBool(cb.Container.IsEphemeral)}
}
