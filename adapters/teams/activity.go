package teams

import (
	"encoding/json"
	"strings"
)

// Activity is the subset of a Bot Framework activity cew reads and writes
// (https://learn.microsoft.com/azure/bot-service/rest-api/bot-framework-rest-connector-api-reference#activity-object).
type Activity struct {
	Type         string               `json:"type"`
	ID           string               `json:"id,omitempty"`
	ServiceURL   string               `json:"serviceUrl,omitempty"`
	ChannelID    string               `json:"channelId,omitempty"`
	From         *ChannelAccount      `json:"from,omitempty"`
	Conversation *ConversationAccount `json:"conversation,omitempty"`
	Recipient    *ChannelAccount      `json:"recipient,omitempty"`
	Text         string               `json:"text,omitempty"`
	TextFormat   string               `json:"textFormat,omitempty"`
	Summary      string               `json:"summary,omitempty"`
	// Name is an invoke activity's name ("adaptiveCard/action").
	Name string `json:"name,omitempty"`
	// Value is what a card action submitted: an object, or any other
	// JSON value a client sends.
	Value        json.RawMessage  `json:"value,omitempty"`
	Entities     []Entity         `json:"entities,omitempty"`
	ChannelData  json.RawMessage  `json:"channelData,omitempty"`
	MembersAdded []ChannelAccount `json:"membersAdded,omitempty"`
	ReplyToID    string           `json:"replyToId,omitempty"`
	Attachments  []Attachment     `json:"attachments,omitempty"`
}

// ChannelAccount is a user or bot.
type ChannelAccount struct {
	ID          string `json:"id"`
	Name        string `json:"name,omitempty"`
	AADObjectID string `json:"aadObjectId,omitempty"`
}

// ConversationAccount is a personal chat, group chat or channel thread.
type ConversationAccount struct {
	ID               string `json:"id"`
	Name             string `json:"name,omitempty"`
	ConversationType string `json:"conversationType,omitempty"` // personal, groupChat, channel
	IsGroup          bool   `json:"isGroup,omitempty"`
	TenantID         string `json:"tenantId,omitempty"`
}

// Entity is an activity entity; cew reads mentions. Mentioned and Text
// are kept whole (the mention's text is what is stripped from the message).
type Entity struct {
	Type      string          `json:"type"`
	Mentioned *ChannelAccount `json:"mentioned,omitempty"`
	Text      string          `json:"text,omitempty"`
}

// Attachment carries an Adaptive Card.
type Attachment struct {
	ContentType string `json:"contentType"`
	Content     any    `json:"content"`
}

// contentTypeAdaptiveCard is the attachment type of an Adaptive Card.
const contentTypeAdaptiveCard = "application/vnd.microsoft.card.adaptive"

// teamsChannelData is the part of Teams' channelData cew reads.
type teamsChannelData struct {
	Tenant struct {
		ID string `json:"id"`
	} `json:"tenant"`
}

// tenantID is the Microsoft Entra tenant the activity came from.
func (a Activity) tenantID() string {
	var cd teamsChannelData
	if len(a.ChannelData) > 0 && json.Unmarshal(a.ChannelData, &cd) == nil && cd.Tenant.ID != "" {
		return cd.Tenant.ID
	}
	if a.Conversation != nil {
		return a.Conversation.TenantID
	}
	return ""
}

func (a Activity) conversationType() string {
	if a.Conversation == nil {
		return ""
	}
	return a.Conversation.ConversationType
}

// mentionsBot reports whether the message @mentions the bot (the
// recipient), and returns the text with every mention of the bot removed.
func (a Activity) mentionsBot() (bool, string) {
	if a.Recipient == nil {
		return false, a.Text
	}
	text, found := a.Text, false
	for _, e := range a.Entities {
		if !strings.EqualFold(e.Type, "mention") || e.Mentioned == nil || e.Mentioned.ID != a.Recipient.ID {
			continue
		}
		found = true
		if e.Text != "" {
			text = strings.ReplaceAll(text, e.Text, " ")
		}
	}
	return found, text
}

// conversationID is the conversation's id; baseConversationID drops a
// channel thread's ";messageid=…" so a channel maps to one Query.Channel.
func (a Activity) conversationID() string {
	if a.Conversation == nil {
		return ""
	}
	return a.Conversation.ID
}

func (a Activity) baseConversationID() string {
	id, _, _ := strings.Cut(a.conversationID(), ";")
	return id
}

// userID identifies the sender for rate limits and audit: the Entra
// object id when Teams gives it, else the channel account id.
func (a Activity) userID() string {
	if a.From == nil {
		return ""
	}
	if a.From.AADObjectID != "" {
		return a.From.AADObjectID
	}
	return a.From.ID
}
