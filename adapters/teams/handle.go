package teams

import (
	"context"
	"encoding/json"
	"errors"
	"html"
	"io"
	"log/slog"
	"net/http"
	"regexp"
	"strings"
	"time"

	"github.com/cewhq/cew/adapters/internal/command"
	"github.com/cewhq/cew/adapters/internal/notice"
	"github.com/cewhq/cew/adapters/internal/workpool"
	"github.com/cewhq/cew/answer"
	"github.com/cewhq/cew/bot"
)

// channelTeams is the channelId of Microsoft Teams activities.
const channelTeams = "msteams"

// refusal answers in an organisation that is not mapped to a tenant.
var refusal = notice.Refusal("Microsoft 365 organisation")

// handleMessages serves POST /api/messages. The token is checked before
// the body is read; nothing is answered for a request that fails it.
func (a *Adapter) handleMessages(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	defer func() { a.metrics.acked(time.Since(start)) }()
	if a.pool.Closing() {
		http.Error(w, "shutting down", http.StatusServiceUnavailable)
		return
	}
	tok, err := a.auth.verify(r.Context(), r.Header.Get("Authorization"))
	if errors.Is(err, errKeysUnavailable) {
		a.metrics.refused("keys_unavailable")
		a.log.Warn("activity refused: signing keys unavailable", "platform", "teams", "stage", "auth", "err", err)
		w.Header().Set("Retry-After", "5")
		http.Error(w, "signing keys unavailable", http.StatusServiceUnavailable)
		return
	}
	if err != nil {
		a.unauthorized(w, err)
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, a.cfg.MaxBodyBytes))
	var tooLarge *http.MaxBytesError
	switch {
	case errors.As(err, &tooLarge):
		a.metrics.refused("too_large")
		http.Error(w, "activity too large", http.StatusRequestEntityTooLarge)
		return
	case err != nil:
		http.Error(w, "unreadable body", http.StatusBadRequest)
		return
	}
	var act Activity
	if err := json.Unmarshal(body, &act); err != nil {
		a.metrics.refused("malformed")
		http.Error(w, "malformed activity", http.StatusBadRequest)
		return
	}
	if err := tok.bind(act.ServiceURL, act.ChannelID); err != nil {
		a.unauthorized(w, err)
		return
	}
	base := context.WithoutCancel(r.Context())
	switch act.Type {
	case "message":
		err = a.onMessage(base, act)
	case "invoke":
		a.onInvoke(r.Context(), w, act)
		return
	case "conversationUpdate":
		err = a.onConversationUpdate(base, act)
	default:
		a.metrics.drop("ignored")
	}
	if errors.Is(err, workpool.ErrClosed) {
		http.Error(w, "shutting down", http.StatusServiceUnavailable)
		return
	}
	w.WriteHeader(http.StatusOK)
}

func (a *Adapter) unauthorized(w http.ResponseWriter, err error) {
	a.metrics.refused("unauthorized")
	// The reason names a claim or key id, never the token.
	a.log.Warn("activity refused", "platform", "teams", "stage", "auth", "err", err)
	http.Error(w, "unauthorized", http.StatusUnauthorized)
}

// conversation is where and to whom a reply goes.
type conversation struct {
	activityID string
	serviceURL string
	channelID  string
	convo      ConversationAccount
	user       ChannelAccount
	botAccount ChannelAccount
	tenant     string
	known      bool
}

func (a *Adapter) conversationOf(act Activity) (conversation, bool) {
	if act.ChannelID != channelTeams || act.From == nil || act.Recipient == nil || act.Conversation == nil || act.Conversation.ID == "" {
		return conversation{}, false
	}
	tenant, known := a.tenant(act.tenantID())
	return conversation{
		activityID: act.ID, serviceURL: act.ServiceURL, channelID: act.ChannelID, convo: *act.Conversation,
		user: *act.From, botAccount: *act.Recipient, tenant: tenant, known: known,
	}, true
}

// query is a bot.Query from this conversation: the channel (without a
// thread's message id) and the conversation keep the session memory, so
// follow-ups in the same chat or thread are understood.
func (c conversation) query(act Activity, text string) bot.Query {
	return bot.Query{
		EventID: act.ID, Platform: answer.PlatformTeams, Tenant: c.tenant,
		Channel: act.baseConversationID(), Thread: act.conversationID(), User: act.userID(), Text: text,
	}
}

// job is one piece of work for the pool.
type job struct {
	conv conversation
	act  Activity
	// run produces the card to reply with; nil card means no reply.
	run func(ctx context.Context, log *slog.Logger) *Card
}

// onMessage turns a message into work: a question, a command, a card
// action, or nothing (a channel message without a mention).
func (a *Adapter) onMessage(base context.Context, act Activity) error {
	conv, ok := a.conversationOf(act)
	if !ok {
		a.metrics.drop("ignored")
		return nil
	}
	if act.ID != "" && !a.seen.Add("activity:"+act.ID, struct{}{}, a.cfg.Now()) {
		a.metrics.drop("duplicate")
		return nil
	}
	if !conv.known {
		return a.submit(base, job{conv: conv, act: act, run: func(_ context.Context, log *slog.Logger) *Card {
			log.Warn("organisation not mapped to a tenant; refusing", "stage", "tenant")
			c := NoticeCard(refusal)
			return &c
		}})
	}
	if len(act.Value) > 0 && strings.TrimSpace(act.Text) == "" {
		data, ok := readActionData(act.Value)
		if !ok {
			a.metrics.drop("ignored")
			return nil
		}
		return a.submit(base, job{conv: conv, act: act, run: func(ctx context.Context, log *slog.Logger) *Card {
			c := a.cardAction(ctx, log, conv, act, data)
			return &c
		}})
	}
	text := act.Text
	if conv.convo.ConversationType != "personal" {
		mentioned, stripped := act.mentionsBot()
		if !mentioned {
			a.metrics.drop("ignored")
			return nil
		}
		text = stripped
	} else if _, stripped := act.mentionsBot(); stripped != "" {
		text = stripped
	}
	text = cleanText(text)
	cmd := command.Parse(text)
	return a.submit(base, job{conv: conv, act: act, run: func(ctx context.Context, log *slog.Logger) *Card {
		var c Card
		switch cmd.Kind {
		case command.Help:
			c = HelpCard()
		case command.StatusUsage:
			c = NoticeCard("Usage: status <document number or title>, for example: status 277-007-D-C-40327")
		case command.Status:
			c = a.answerCard(ctx, log, conv, func(ctx context.Context) (answer.Answer, error) {
				return a.bot.StatusLookup(ctx, conv.query(act, cmd.Arg))
			})
		default:
			c = a.answerCard(ctx, log, conv, func(ctx context.Context) (answer.Answer, error) {
				return a.bot.Handle(ctx, conv.query(act, cmd.Arg))
			})
		}
		if c.Type == "" {
			return nil
		}
		return &c
	}})
}

// submit queues a job; a full queue gets a "busy" reply from a side slot.
func (a *Adapter) submit(base context.Context, j job) error {
	log := a.log.With("platform", "teams", "activity_id", j.act.ID, "conversation_type", j.conv.convo.ConversationType)
	err := a.pool.Submit(base, func(ctx context.Context) { a.work(ctx, log, j) })
	switch {
	case errors.Is(err, workpool.ErrClosed):
		a.seen.Forget("activity:" + j.act.ID)
		a.metrics.drop("shutting_down")
		return err
	case err != nil:
		a.metrics.drop("busy")
		log.Warn("worker queue full; telling the user", "stage", "ack")
		sent := a.pool.GoSide(base, deliverTimeout, func(ctx context.Context) {
			a.reply(ctx, log, j.conv, NoticeCard(notice.Busy))
		})
		if !sent {
			log.Warn("busy notice dropped", "stage", "ack")
		}
	}
	return nil
}

// work shows the typing indicator, produces the card and replies with it.
func (a *Adapter) work(ctx context.Context, log *slog.Logger, j job) {
	start := time.Now()
	typing := Activity{Type: "typing", From: &j.conv.botAccount, Recipient: &j.conv.user, Conversation: &j.conv.convo}
	if err := a.deliver.Deliver(ctx, Delivery{ServiceURL: j.conv.serviceURL, ConversationID: j.conv.convo.ID, Activity: typing}); err != nil {
		log.Info("typing indicator not sent", "stage", "typing", "err", err)
	}
	card := j.run(ctx, log)
	if card == nil {
		return
	}
	dctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), deliverTimeout)
	defer cancel()
	a.reply(dctx, log, j.conv, *card)
	log.Info("delivered", "stage", "deliver", "latency_ms", time.Since(start).Milliseconds())
}

// answerCard runs ask and renders its answer; a duplicate gives no card.
func (a *Adapter) answerCard(ctx context.Context, log *slog.Logger, conv conversation, ask func(context.Context) (answer.Answer, error)) Card {
	start := time.Now()
	ans, err := ask(ctx)
	if isDuplicate(err) {
		a.metrics.drop("duplicate")
		return Card{}
	}
	log.Info("answered", "stage", "answer", "answer_id", ans.ID, "status", ans.Status, "latency_ms", time.Since(start).Milliseconds())
	if err != nil {
		log.Error("answer failed", "stage", "answer", "answer_id", ans.ID, "err", err)
		ans = answer.Failed(ans, conv.activityID)
	}
	return RenderCard(ans)
}

// reply posts card in the conversation, as a reply to the activity when
// there is one. The answer is already in the audit log: a lost reply is
// logged and counted, not retried past the connector's own retries.
func (a *Adapter) reply(ctx context.Context, log *slog.Logger, conv conversation, card Card) {
	act := Activity{
		Type: "message", From: &conv.botAccount, Recipient: &conv.user, Conversation: &conv.convo,
		ReplyToID: conv.activityID, Summary: card.FallbackText,
		Attachments: []Attachment{{ContentType: contentTypeAdaptiveCard, Content: card}},
	}
	d := Delivery{ServiceURL: conv.serviceURL, ConversationID: conv.convo.ID, ReplyToID: conv.activityID, Activity: act}
	if err := a.deliver.Deliver(ctx, d); err != nil {
		a.metrics.drop("lost_answer")
		log.Error("reply not delivered", "stage", "deliver", "err", err)
	}
}

// readActionData reads a card action's value: cew's own buttons send an
// object with "cew"; anything else (other JSON values, other apps'
// buttons) is not for cew.
func readActionData(raw json.RawMessage) (actionData, bool) {
	var d actionData
	if err := json.Unmarshal(raw, &d); err != nil {
		return actionData{}, false
	}
	switch d.Cew {
	case actionFeedback:
		return d, d.AnswerID != "" && (d.Vote == "up" || d.Vote == "down")
	case actionStatus:
		return d, strings.TrimSpace(d.Doc) != ""
	}
	return actionData{}, false
}

// cardAction handles a button: a vote is recorded and acknowledged, a
// status button looks the document up.
func (a *Adapter) cardAction(ctx context.Context, log *slog.Logger, conv conversation, act Activity, d actionData) Card {
	if d.Cew == actionStatus {
		return a.answerCard(ctx, log, conv, func(ctx context.Context) (answer.Answer, error) {
			return a.bot.StatusLookup(ctx, conv.query(act, d.Doc))
		})
	}
	return NoticeCard(a.recordVote(ctx, log, conv, act, d))
}

// recordVote records a 👍/👎 and returns what to tell the user.
func (a *Adapter) recordVote(ctx context.Context, log *slog.Logger, conv conversation, act Activity, d actionData) string {
	up := d.Vote == "up"
	err := a.bot.RecordFeedback(ctx, bot.Feedback{
		AnswerID: d.AnswerID, Platform: answer.PlatformTeams, Tenant: conv.tenant,
		Channel: act.baseConversationID(), User: act.userID(), Up: up,
	})
	if err != nil {
		log.Error("feedback not recorded", "stage", "feedback", "answer_id", d.AnswerID, "err", err)
		return notice.FeedbackFailed
	}
	log.Info("feedback recorded", "stage", "feedback", "answer_id", d.AnswerID, "up", up)
	return notice.FeedbackRecorded(up)
}

// invokeResponse is the body of an invoke's HTTP response.
type invokeResponse struct {
	StatusCode int    `json:"statusCode"`
	Type       string `json:"type"`
	Value      any    `json:"value"`
}

// onInvoke answers "adaptiveCard/action" (Action.Execute, and
// Action.Submit in clients that send it as an invoke) within the request:
// a vote is recorded at once; a status button is answered like a message.
func (a *Adapter) onInvoke(ctx context.Context, w http.ResponseWriter, act Activity) {
	respond := func(code int, text string) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusOK)
		_ = json.NewEncoder(w).Encode(invokeResponse{StatusCode: code, Type: "application/vnd.microsoft.activity.message", Value: text})
	}
	conv, ok := a.conversationOf(act)
	if !ok || act.Name != "adaptiveCard/action" {
		a.metrics.drop("ignored")
		w.WriteHeader(http.StatusOK)
		return
	}
	var v struct {
		Action struct {
			Data json.RawMessage `json:"data"`
		} `json:"action"`
	}
	d, valid := actionData{}, false
	if json.Unmarshal(act.Value, &v) == nil && len(v.Action.Data) > 0 {
		d, valid = readActionData(v.Action.Data)
	}
	switch {
	case !valid:
		respond(http.StatusBadRequest, "This button is not one of cew's.")
		return
	case !conv.known:
		respond(http.StatusOK, refusal)
		return
	case act.ID != "" && !a.seen.Add("activity:"+act.ID, struct{}{}, a.cfg.Now()):
		a.metrics.drop("duplicate")
		respond(http.StatusOK, "Already recorded.")
		return
	}
	log := a.log.With("platform", "teams", "activity_id", act.ID)
	if d.Cew == actionStatus {
		if err := a.submit(context.WithoutCancel(ctx), job{conv: conv, act: act, run: func(ctx context.Context, log *slog.Logger) *Card {
			c := a.cardAction(ctx, log, conv, act, d)
			return &c
		}}); err != nil {
			respond(http.StatusServiceUnavailable, notice.ShuttingDown)
			return
		}
		respond(http.StatusOK, "Looking up the status of "+d.Doc+"…")
		return
	}
	fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), feedbackTimeout)
	defer cancel()
	respond(http.StatusOK, a.recordVote(fctx, log, conv, act, d))
}

// onConversationUpdate welcomes a person or team that added cew, once per
// conversation.
func (a *Adapter) onConversationUpdate(base context.Context, act Activity) error {
	conv, ok := a.conversationOf(act)
	if !ok {
		return nil
	}
	added := false
	for _, m := range act.MembersAdded {
		if m.ID == conv.botAccount.ID {
			added = true
		}
	}
	if !added || !a.welcomed.Add("welcome:"+conv.convo.ID, struct{}{}, a.cfg.Now()) {
		return nil
	}
	// A welcome is a new message, not a reply to the system activity.
	conv.activityID = ""
	return a.submit(base, job{conv: conv, act: act, run: func(context.Context, *slog.Logger) *Card {
		c := WelcomeCard()
		if !conv.known {
			c = NoticeCard(refusal)
		}
		return &c
	}})
}

var (
	// atTag is a mention of someone else: keep the name.
	atTag = regexp.MustCompile(`(?is)<at[^>]*>(.*?)</at>`)
	// htmlTag is any other markup Teams wraps text in (<p>, <div>, <br>).
	htmlTag = regexp.MustCompile(`(?s)<[^>]*>`)
)

// cleanText turns Teams message text into the question: mentions of other
// people become their names, markup goes, HTML entities are decoded.
func cleanText(s string) string {
	s = atTag.ReplaceAllString(s, "$1")
	s = htmlTag.ReplaceAllString(s, " ")
	s = html.UnescapeString(s)
	return strings.Join(strings.Fields(s), " ")
}
