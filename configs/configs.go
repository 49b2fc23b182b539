// Package configs is the agent's typed configuration: embedded defaults, a YAML file,
// COUPWATCH_* environment overrides, strict decoding (an unknown key is an error) and a
// Validate that names the key path of every problem. It is the only importer of viper.
//
// Secrets (the MQTT password) are of type Secret, which never prints its value.
package configs

import (
	"bytes"
	"crypto/tls"
	"crypto/x509"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/viper"
)

//go:embed defaults.yaml
var defaultsYAML []byte

// EnvPrefix prefixes the environment variables that override configuration keys.
const EnvPrefix = "COUPWATCH_"

// Config is the agent's configuration.
type Config struct {
	Site     string   `mapstructure:"site" json:"site"`
	AgentID  string   `mapstructure:"agent_id" json:"agent_id"`
	DataDir  string   `mapstructure:"data_dir" json:"data_dir"`
	Log      Log      `mapstructure:"log" json:"log"`
	HTTP     HTTP     `mapstructure:"http" json:"http"`
	MQTT     MQTT     `mapstructure:"mqtt" json:"mqtt"`
	Outbox   Outbox   `mapstructure:"outbox" json:"outbox"`
	Store    Store    `mapstructure:"store" json:"store"`
	Shutdown Shutdown `mapstructure:"shutdown" json:"shutdown"`
	Tables   []Table  `mapstructure:"tables" json:"tables"`
}

// Log configures the agent's log.
type Log struct {
	Level  string `mapstructure:"level" json:"level"`
	Format string `mapstructure:"format" json:"format"`
}

// HTTP configures the metrics and health endpoints.
type HTTP struct {
	Listen string `mapstructure:"listen" json:"listen"`
}

// MQTT configures the broker connection.
type MQTT struct {
	URL            string        `mapstructure:"url" json:"url"`
	Embedded       Embedded      `mapstructure:"embedded" json:"embedded"`
	ClientIDPrefix string        `mapstructure:"client_id_prefix" json:"client_id_prefix"`
	Username       string        `mapstructure:"username" json:"username"`
	Password       Secret        `mapstructure:"password" json:"password"`
	PasswordFile   string        `mapstructure:"password_file" json:"password_file"`
	TLS            TLS           `mapstructure:"tls" json:"tls"`
	KeepAlive      time.Duration `mapstructure:"keepalive" json:"keepalive"`
	ConnectTimeout time.Duration `mapstructure:"connect_timeout" json:"connect_timeout"`
	AckTimeout     time.Duration `mapstructure:"ack_timeout" json:"ack_timeout"`
	MaxInflight    int           `mapstructure:"max_inflight" json:"max_inflight"`
	ReconnectMin   time.Duration `mapstructure:"reconnect_min" json:"reconnect_min"`
	ReconnectMax   time.Duration `mapstructure:"reconnect_max" json:"reconnect_max"`
}

// Embedded configures the in-process broker used when mqtt.url is empty.
type Embedded struct {
	Listen string `mapstructure:"listen" json:"listen"`
}

// TLS configures the broker connection's TLS.
type TLS struct {
	CAFile             string `mapstructure:"ca_file" json:"ca_file"`
	CertFile           string `mapstructure:"cert_file" json:"cert_file"`
	KeyFile            string `mapstructure:"key_file" json:"key_file"`
	ServerName         string `mapstructure:"server_name" json:"server_name"`
	InsecureSkipVerify bool   `mapstructure:"insecure_skip_verify" json:"insecure_skip_verify"`
}

// Outbox configures the durable alert outbox.
type Outbox struct {
	Dir          string `mapstructure:"dir" json:"dir"`
	SegmentBytes int64  `mapstructure:"segment_bytes" json:"segment_bytes"`
}

// Store configures the journal store.
type Store struct {
	Path      string        `mapstructure:"path" json:"path"`
	Retention time.Duration `mapstructure:"retention" json:"retention"`
}

// Shutdown configures graceful shutdown.
type Shutdown struct {
	DrainTimeout time.Duration `mapstructure:"drain_timeout" json:"drain_timeout"`
}

// Table is one watched table.
type Table struct {
	ID     string `mapstructure:"id" json:"id"`
	Source Source `mapstructure:"source" json:"source"`
}

// Source says where a table's journal events come from.
type Source struct {
	// Journal is a coup journal file (JSON Lines).
	Journal string `mapstructure:"journal" json:"journal"`
	// Speed paces a recorded journal: "max", "1x" (recorded timing), "10x"...
	Speed string `mapstructure:"speed" json:"speed"`
	// Follow keeps reading the file as it grows.
	Follow bool `mapstructure:"follow" json:"follow"`
}

// Secret is a configuration value that must never be printed or logged.
type Secret string

const redacted = "[redacted]"

// Reveal returns the secret's value, for the one place that uses it.
func (s Secret) Reveal() string { return string(s) }

// String redacts the secret.
func (s Secret) String() string {
	if s == "" {
		return ""
	}
	return redacted
}

// GoString redacts the secret in %#v.
func (s Secret) GoString() string { return strconv.Quote(s.String()) }

// LogValue redacts the secret in slog output.
func (s Secret) LogValue() slog.Value { return slog.StringValue(s.String()) }

// MarshalJSON redacts the secret.
func (s Secret) MarshalJSON() ([]byte, error) { return json.Marshal(s.String()) }

// MarshalText redacts the secret.
func (s Secret) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// Defaults returns the embedded default configuration.
func Defaults() (*Config, error) { return Load("", func(string) string { return "" }) }

// DefaultsYAML returns the embedded defaults file (documented keys and values).
func DefaultsYAML() []byte { return bytes.Clone(defaultsYAML) }

// Load reads the embedded defaults, then the YAML file at path (if not empty), then the
// COUPWATCH_* variables that getenv returns. An unknown key or a value of the wrong type is an
// error naming the file and the key. Load does not validate: call Validate once every
// override (command-line flags) has been applied.
func Load(path string, getenv func(string) string) (*Config, error) {
	v := viper.New()
	v.SetConfigType("yaml")
	if err := v.ReadConfig(bytes.NewReader(defaultsYAML)); err != nil {
		return nil, fmt.Errorf("embedded defaults: %w", err)
	}
	src := "embedded defaults"
	if path != "" {
		b, err := os.ReadFile(path)
		if err != nil {
			return nil, fmt.Errorf("reading config: %w", err)
		}
		if err := v.MergeConfig(bytes.NewReader(b)); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		src = path
	}
	var envKeys []string
	for _, key := range v.AllKeys() {
		if key == "tables" || strings.HasPrefix(key, "tables.") {
			continue
		}
		name := EnvName(key)
		if val := getenv(name); val != "" {
			v.Set(key, val)
			envKeys = append(envKeys, name)
		}
	}
	var c Config
	if err := v.UnmarshalExact(&c); err != nil {
		if len(envKeys) > 0 {
			src += " (with " + strings.Join(envKeys, ", ") + ")"
		}
		return nil, fmt.Errorf("%s: %s", src, cleanDecodeError(err))
	}
	return &c, nil
}

// EnvName returns the environment variable that overrides a key: mqtt.url -> COUPWATCH_MQTT_URL.
func EnvName(key string) string {
	return EnvPrefix + strings.ToUpper(strings.ReplaceAll(key, ".", "_"))
}

// cleanDecodeError turns mapstructure's multi-line message into one line.
func cleanDecodeError(err error) string {
	invalidKeys := regexp.MustCompile(`^'([^']*)' has invalid keys: (.*)$`)
	msg := err.Error()
	msg = strings.TrimPrefix(msg, "decoding failed due to the following error(s):")
	parts := strings.FieldsFunc(msg, func(r rune) bool { return r == '\n' })
	for i, p := range parts {
		p = strings.TrimSpace(p)
		// "'mqtt' has invalid keys: urll, foo" -> "unknown key mqtt.urll, mqtt.foo"
		if m := invalidKeys.FindStringSubmatch(p); m != nil {
			keys := strings.Split(m[2], ",")
			for j, k := range keys {
				k = strings.TrimSpace(k)
				if m[1] != "" {
					k = m[1] + "." + k
				}
				keys[j] = k
			}
			p = "unknown key " + strings.Join(keys, ", ")
		}
		parts[i] = p
	}
	return strings.Join(parts, "; ")
}

// OutboxDir returns the outbox directory: outbox.dir or <data_dir>/outbox.
func (c *Config) OutboxDir() string {
	if c.Outbox.Dir != "" {
		return c.Outbox.Dir
	}
	return filepath.Join(c.DataDir, "outbox")
}

// StorePath returns the journal store's path: store.path or <data_dir>/journal.db.
func (c *Config) StorePath() string {
	if c.Store.Path != "" {
		return c.Store.Path
	}
	return filepath.Join(c.DataDir, "journal.db")
}

// Embedded reports whether the agent runs the embedded broker.
func (c *Config) Embedded() bool { return c.MQTT.URL == "" || c.MQTT.URL == "embedded" }

// Password returns the MQTT password: mqtt.password, or the content of mqtt.password_file
// (trailing newline removed).
func (c *Config) Password() (Secret, error) {
	if c.MQTT.PasswordFile == "" {
		return c.MQTT.Password, nil
	}
	b, err := os.ReadFile(c.MQTT.PasswordFile)
	if err != nil {
		return "", fmt.Errorf("mqtt.password_file: %w", err)
	}
	return Secret(strings.TrimRight(string(b), "\r\n")), nil
}

// String renders the configuration as JSON with the secrets redacted.
func (c *Config) String() string {
	b, err := json.MarshalIndent(readable(reflect.ValueOf(*c)), "", "  ")
	if err != nil {
		return fmt.Sprintf("config: %v", err)
	}
	return string(b)
}

// readable turns a configuration value into what json.Marshal prints as the file would say
// it: durations as "30s" rather than nanoseconds, the rest (secrets included, which marshal
// themselves redacted) unchanged. Struct fields keep their json names and order.
func readable(v reflect.Value) any {
	switch {
	case v.Type() == reflect.TypeFor[time.Duration]():
		return time.Duration(v.Int()).String()
	case v.Kind() == reflect.Struct:
		var fields []orderedField
		for i := range v.NumField() {
			name, _, _ := strings.Cut(v.Type().Field(i).Tag.Get("json"), ",")
			fields = append(fields, orderedField{name, readable(v.Field(i))})
		}
		return orderedObject(fields)
	case v.Kind() == reflect.Slice && !v.IsNil():
		out := make([]any, v.Len())
		for i := range out {
			out[i] = readable(v.Index(i))
		}
		return out
	}
	return v.Interface()
}

type orderedField struct {
	name  string
	value any
}

// orderedObject is a JSON object whose keys keep the struct's field order.
type orderedObject []orderedField

func (o orderedObject) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, f := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		k, err := json.Marshal(f.name)
		if err != nil {
			return nil, err
		}
		v, err := json.Marshal(f.value)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f.name, err)
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// LogValue renders the configuration for slog with the secrets redacted.
func (c *Config) LogValue() slog.Value { return slog.StringValue(c.String()) }

// ParseSpeed reads a pace: "max" (or "") is 0, as fast as possible; "1x" keeps the recorded
// timing; "10x" plays ten times faster.
func ParseSpeed(s string) (float64, error) {
	switch s {
	case "", "max":
		return 0, nil
	}
	n, ok := strings.CutSuffix(s, "x")
	if !ok {
		return 0, fmt.Errorf("speed %q: want max or a factor such as 1x or 10x", s)
	}
	f, err := strconv.ParseFloat(n, 64)
	if err != nil || f <= 0 || f > 1e6 {
		return 0, fmt.Errorf("speed %q: want max or a positive factor such as 1x or 10x", s)
	}
	return f, nil
}

// ValidID reports whether s can name a site or a table: it becomes an MQTT topic level and a
// directory name, so letters, digits, '.', '_' and '-' only.
func ValidID(s string) bool {
	if s == "" || len(s) > 64 || s == "." || s == ".." {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// Validate checks the configuration and returns every problem, each naming its key path. It
// does not open files: the agent names the key when a file it opens is missing.
func (c *Config) Validate() error {
	var errs []error
	bad := func(key, format string, args ...any) {
		errs = append(errs, fmt.Errorf("%s: %s", key, fmt.Sprintf(format, args...)))
	}
	if !ValidID(c.Site) {
		bad("site", "%q must be 1-64 letters, digits, '.', '_' or '-' (it is an MQTT topic level)", c.Site)
	}
	switch c.Log.Level {
	case "debug", "info", "warn", "error":
	default:
		bad("log.level", "%q: want debug, info, warn or error", c.Log.Level)
	}
	switch c.Log.Format {
	case "text", "json":
	default:
		bad("log.format", "%q: want text or json", c.Log.Format)
	}
	if c.HTTP.Listen != "" {
		if _, _, err := net.SplitHostPort(c.HTTP.Listen); err != nil {
			bad("http.listen", "%q: want host:port or empty: %v", c.HTTP.Listen, err)
		}
	}
	if c.DataDir == "" && (c.Outbox.Dir == "" || c.Store.Path == "") {
		bad("data_dir", "empty, and outbox.dir or store.path does not say where to write instead")
	}
	c.validateMQTT(bad)
	if c.Outbox.SegmentBytes < 64<<10 || c.Outbox.SegmentBytes > 1<<30 {
		bad("outbox.segment_bytes", "%d: want between 65536 and 1073741824", c.Outbox.SegmentBytes)
	}
	if c.Store.Retention < 0 || (c.Store.Retention > 0 && c.Store.Retention < time.Hour) {
		bad("store.retention", "%s: want 0 (keep everything) or at least 1h", c.Store.Retention)
	}
	if c.Shutdown.DrainTimeout < 0 {
		bad("shutdown.drain_timeout", "%s: must not be negative", c.Shutdown.DrainTimeout)
	}
	if len(c.Tables) == 0 {
		bad("tables", "no table to watch: list at least one (id and source.journal)")
	}
	seen := map[string]int{}
	for i, t := range c.Tables {
		key := fmt.Sprintf("tables[%d]", i)
		if !ValidID(t.ID) {
			bad(key+".id", "%q must be 1-64 letters, digits, '.', '_' or '-' (it is an MQTT topic level and a directory name)", t.ID)
		} else if j, dup := seen[t.ID]; dup {
			bad(key+".id", "%q is already tables[%d].id", t.ID, j)
		} else {
			seen[t.ID] = i
		}
		if t.Source.Journal == "" {
			bad(key+".source.journal", "required: the journal file this table's events come from")
		}
		if sp, err := ParseSpeed(t.Source.Speed); err != nil {
			bad(key+".source.speed", "%v", err)
		} else if sp > 0 && t.Source.Follow {
			bad(key+".source.speed", "%q paces a recorded journal; a followed journal (follow: true) is read as it is written: leave speed out", t.Source.Speed)
		}
	}
	return errors.Join(errs...)
}

func (c *Config) validateMQTT(bad func(key, format string, args ...any)) {
	m := &c.MQTT
	if c.Embedded() {
		if _, _, err := net.SplitHostPort(m.Embedded.Listen); err != nil {
			bad("mqtt.embedded.listen", "%q: want host:port: %v", m.Embedded.Listen, err)
		}
	} else {
		u, err := url.Parse(m.URL)
		switch {
		case err != nil:
			bad("mqtt.url", "%v", err)
		case !knownScheme(u.Scheme):
			bad("mqtt.url", "%q: scheme %q is not one of tcp, mqtt, ssl, tls, mqtts, ws, wss (or leave it empty for the embedded broker)", m.URL, u.Scheme)
		case u.Host == "":
			bad("mqtt.url", "%q has no host", m.URL)
		case u.User != nil:
			bad("mqtt.url", "must not carry credentials: use mqtt.username and mqtt.password_file")
		}
	}
	if !ValidID(m.ClientIDPrefix) {
		bad("mqtt.client_id_prefix", "%q must be 1-64 letters, digits, '.', '_' or '-'", m.ClientIDPrefix)
	}
	if m.Password != "" && m.PasswordFile != "" {
		bad("mqtt.password", "set either mqtt.password or mqtt.password_file, not both")
	}
	if (m.Password != "" || m.PasswordFile != "") && m.Username == "" {
		bad("mqtt.username", "required when a password is set")
	}
	if (m.TLS.CertFile == "") != (m.TLS.KeyFile == "") {
		bad("mqtt.tls", "cert_file and key_file go together (a client certificate and its key)")
	}
	for _, d := range []struct {
		key string
		v   time.Duration
	}{{"mqtt.keepalive", m.KeepAlive}, {"mqtt.connect_timeout", m.ConnectTimeout}, {"mqtt.ack_timeout", m.AckTimeout}, {"mqtt.reconnect_min", m.ReconnectMin}, {"mqtt.reconnect_max", m.ReconnectMax}} {
		if d.v <= 0 {
			bad(d.key, "%s: must be positive", d.v)
		}
	}
	if m.KeepAlive > 0 && m.KeepAlive < time.Second {
		bad("mqtt.keepalive", "%s: MQTT counts keepalive in seconds; want at least 1s", m.KeepAlive)
	}
	if m.ReconnectMax < m.ReconnectMin {
		bad("mqtt.reconnect_max", "%s is below mqtt.reconnect_min (%s)", m.ReconnectMax, m.ReconnectMin)
	}
	if m.MaxInflight < 1 || m.MaxInflight > 65535 {
		bad("mqtt.max_inflight", "%d: want 1 to 65535", m.MaxInflight)
	}
}

func knownScheme(s string) bool {
	switch s {
	case "tcp", "mqtt", "ssl", "tls", "mqtts", "ws", "wss":
		return true
	}
	return false
}

// TLSConfig builds the broker connection's TLS configuration from mqtt.tls; it returns nil
// when the URL does not ask for TLS and no TLS key is set. Errors name the key.
func (c *Config) TLSConfig() (*tls.Config, error) {
	t := c.MQTT.TLS
	secure := false
	if u, err := url.Parse(c.MQTT.URL); err == nil {
		switch u.Scheme {
		case "ssl", "tls", "mqtts", "wss":
			secure = true
		}
	}
	if !secure && t.CAFile == "" && t.CertFile == "" && t.ServerName == "" && !t.InsecureSkipVerify {
		return nil, nil
	}
	cfg := &tls.Config{MinVersion: tls.VersionTLS12, ServerName: t.ServerName, InsecureSkipVerify: t.InsecureSkipVerify}
	if t.CAFile != "" {
		pem, err := os.ReadFile(t.CAFile)
		if err != nil {
			return nil, fmt.Errorf("mqtt.tls.ca_file: %w", err)
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("mqtt.tls.ca_file: %s holds no PEM certificate", t.CAFile)
		}
		cfg.RootCAs = pool
	}
	if t.CertFile != "" {
		cert, err := tls.LoadX509KeyPair(t.CertFile, t.KeyFile)
		if err != nil {
			return nil, fmt.Errorf("mqtt.tls.cert_file/key_file: %w", err)
		}
		cfg.Certificates = []tls.Certificate{cert}
	}
	return cfg, nil
}
