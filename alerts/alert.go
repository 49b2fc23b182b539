// Package alerts is the wire contract between the agent and the surveillance room: the alert
// message (one per discrepancy, schema coupwatch.alert.v1, see docs/alerts.md and
// schema/alert.v1.json), its idempotency key, the MQTT topic layout and the table status
// message. Sub-packages hold the durable outbox (outbox), the paho publisher and subscriber
// (mqtt) and the embedded broker (broker).
package alerts

import (
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/coupwatch/coupwatch/games"
	"github.com/coupwatch/coupwatch/journal"
)

// Schema is the schema id every alert carries. A consumer that reads v1 reads every later
// v1.x message: fields are only ever added.
const Schema = "coupwatch.alert.v1"

// StatusSchema is the schema id of the table status message.
const StatusSchema = "coupwatch.status.v1"

// TopicRoot is the first two levels of every topic.
const TopicRoot = "coupwatch/v1"

//go:embed schema/alert.v1.json
var schemaJSON []byte

// JSONSchema returns the JSON Schema (draft 2020-12) of the alert message.
func JSONSchema() []byte { return append([]byte(nil), schemaJSON...) }

// Meta is what the agent adds to a discrepancy to make an alert.
type Meta struct {
	Site         string
	Game         string
	Dealer       string
	AgentID      string
	AgentVersion string
	// Journal names the journal the evidence lines refer to (its path or source id).
	Journal string
}

// Evidence points at the journal lines and the frames that support a finding.
type Evidence struct {
	Journal string   `json:"journal,omitempty"`
	Lines   []int    `json:"lines"`
	Frames  []string `json:"frames"`
}

// Alert is one discrepancy on the wire.
type Alert struct {
	ID           string          `json:"id"`
	Schema       string          `json:"schema"`
	Site         string          `json:"site"`
	Table        string          `json:"table"`
	Game         string          `json:"game"`
	Coup         string          `json:"coup"`
	T            string          `json:"t"`
	Kind         string          `json:"kind"`
	Rule         string          `json:"rule"`
	Article      string          `json:"article"`
	Severity     string          `json:"severity"`
	Spot         *string         `json:"spot"`
	Player       *string         `json:"player"`
	Expected     json.RawMessage `json:"expected"`
	Observed     json.RawMessage `json:"observed"`
	Detail       string          `json:"detail"`
	Evidence     Evidence        `json:"evidence"`
	Dealer       *string         `json:"dealer"`
	Agent        string          `json:"agent"`
	AgentVersion string          `json:"agent_version"`
	RulesVersion string          `json:"rules_version"`
}

// ID returns the idempotency key of a discrepancy: the first 128 bits of a SHA-256 over the
// site, table, coup, time, rule, spot, player and evidence lines, in hex. The same finding
// gets the same id whoever computes it and however often (a replay, an agent restart, a
// redelivery), and two findings differ in at least one of these.
func ID(site string, d *games.Discrepancy) string {
	h := sha256.New()
	var b []byte
	for _, s := range []string{Schema, site, d.Table, d.Coup, journal.FormatTime(d.T), d.Rule, d.Spot, d.Player} {
		b = strconv.AppendInt(b[:0], int64(len(s)), 10)
		b = append(b, ':')
		b = append(b, s...)
		h.Write(b)
	}
	for _, l := range d.Evidence.Lines {
		b = strconv.AppendInt(b[:0], int64(l), 10)
		b = append(b, ',')
		h.Write(b)
	}
	sum := h.Sum(nil)
	return hex.EncodeToString(sum[:16])
}

// New builds the alert of a discrepancy.
func New(d *games.Discrepancy, m Meta) *Alert {
	a := &Alert{
		ID:           ID(m.Site, d),
		Schema:       Schema,
		Site:         m.Site,
		Table:        d.Table,
		Game:         m.Game,
		Coup:         d.Coup,
		T:            journal.FormatTime(d.T),
		Kind:         string(d.Kind),
		Rule:         d.Rule,
		Article:      d.Article,
		Severity:     string(d.Severity),
		Spot:         optional(d.Spot),
		Player:       optional(d.Player),
		Expected:     valueJSON(d.Expected),
		Observed:     valueJSON(d.Observed),
		Detail:       d.Detail,
		Evidence:     Evidence{Journal: m.Journal, Lines: d.Evidence.Lines, Frames: d.Evidence.Frames},
		Dealer:       optional(m.Dealer),
		Agent:        m.AgentID,
		AgentVersion: m.AgentVersion,
		RulesVersion: games.RulesVersion,
	}
	if a.Evidence.Lines == nil {
		a.Evidence.Lines = []int{}
	}
	if a.Evidence.Frames == nil {
		a.Evidence.Frames = []string{}
	}
	return a
}

func optional(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func valueJSON(v games.Value) json.RawMessage {
	switch {
	case v.IsNone():
		return json.RawMessage("null")
	case v.IsMoney():
		return json.RawMessage(strconv.FormatInt(v.Amount(), 10))
	}
	return json.RawMessage(journal.AppendString(nil, v.String()))
}

// Marshal returns the alert's JSON message.
func (a *Alert) Marshal() ([]byte, error) { return json.Marshal(a) }

// Topic returns the alert's topic: coupwatch/v1/<site>/<table>/alerts/<kind>.
func (a *Alert) Topic() string { return AlertTopic(a.Site, a.Table, a.Kind) }

// Parse reads an alert message and checks the fields every consumer relies on.
func Parse(b []byte) (*Alert, error) {
	var a Alert
	if err := json.Unmarshal(b, &a); err != nil {
		return nil, fmt.Errorf("alert: %w", err)
	}
	if !strings.HasPrefix(a.Schema, "coupwatch.alert.v1") {
		return nil, fmt.Errorf("alert: schema %q is not coupwatch.alert.v1", a.Schema)
	}
	if a.ID == "" || a.Table == "" || a.Kind == "" || a.Rule == "" {
		return nil, errors.New("alert: id, table, kind and rule are required")
	}
	return &a, nil
}

// Time returns the alert's time.
func (a *Alert) Time() (time.Time, error) { return journal.ParseTime([]byte(a.T)) }

// AlertTopic returns the topic of a table's alerts of one kind.
func AlertTopic(site, table, kind string) string {
	return TopicRoot + "/" + site + "/" + table + "/alerts/" + kind
}

// StatusTopic returns the topic of a table's retained status.
func StatusTopic(site, table string) string {
	return TopicRoot + "/" + site + "/" + table + "/status"
}

// AlertFilter returns the subscription filter for alerts; empty site, table or kind match any.
func AlertFilter(site, table, kind string) string {
	return TopicRoot + "/" + or(site, "+") + "/" + or(table, "+") + "/alerts/" + or(kind, "+")
}

// StatusFilter returns the subscription filter for status messages; empty site or table match any.
func StatusFilter(site, table string) string {
	return TopicRoot + "/" + or(site, "+") + "/" + or(table, "+") + "/status"
}

func or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// States of a table's status message.
const (
	// Online: the agent watches the table and is connected.
	Online = "online"
	// Offline: the agent stopped (reason "shutdown") or lost its connection (the broker
	// publishes the last will, reason "connection lost").
	Offline = "offline"
)

// Status is a table's retained status message.
type Status struct {
	Schema       string `json:"schema"`
	Site         string `json:"site"`
	Table        string `json:"table"`
	State        string `json:"state"`
	Reason       string `json:"reason,omitempty"`
	Agent        string `json:"agent"`
	AgentVersion string `json:"agent_version"`
	RulesVersion string `json:"rules_version"`
	// Since is when the agent entered this state (absent from the last will).
	Since string `json:"since,omitempty"`
}

// NewStatus returns a status message.
func NewStatus(site, table, state, reason, agentID, agentVersion string, since time.Time) *Status {
	s := &Status{
		Schema: StatusSchema, Site: site, Table: table, State: state, Reason: reason,
		Agent: agentID, AgentVersion: agentVersion, RulesVersion: games.RulesVersion,
	}
	if !since.IsZero() {
		s.Since = journal.FormatTime(since)
	}
	return s
}

// Marshal returns the status's JSON message.
func (s *Status) Marshal() []byte {
	b, err := json.Marshal(s)
	if err != nil {
		panic(fmt.Sprintf("alerts: marshalling a status cannot fail: %v", err))
	}
	return b
}
