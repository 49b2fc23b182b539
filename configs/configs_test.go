package configs_test

import (
	"bytes"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/coupwatch/coupwatch/configs"
)

func noEnv(string) string { return "" }

func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestDefaults(t *testing.T) {
	c, err := configs.Defaults()
	if err != nil {
		t.Fatal(err)
	}
	checks := []struct {
		name      string
		got, want any
	}{
		{"site", c.Site, "default"},
		{"mqtt.url", c.MQTT.URL, ""},
		{"mqtt.embedded.listen", c.MQTT.Embedded.Listen, "127.0.0.1:1883"},
		{"mqtt.ack_timeout", c.MQTT.AckTimeout, 10 * time.Second},
		{"mqtt.max_inflight", c.MQTT.MaxInflight, 64},
		{"store.retention", c.Store.Retention, 2160 * time.Hour},
		{"outbox dir", c.OutboxDir(), "/var/lib/coupwatch/outbox"},
		{"store path", c.StorePath(), "/var/lib/coupwatch/journal.db"},
		{"embedded", c.Embedded(), true},
		{"shutdown.drain_timeout", c.Shutdown.DrainTimeout, 10 * time.Second},
	}
	for _, ch := range checks {
		if ch.got != ch.want {
			t.Errorf("%s = %v, want %v", ch.name, ch.got, ch.want)
		}
	}
	// The defaults alone lack only a table.
	err = c.Validate()
	if err == nil || err.Error() != "tables: no table to watch: list at least one (id and source.journal)" {
		t.Errorf("Validate(defaults) = %v, want only the missing tables", err)
	}
}

func TestLoadFileAndEnv(t *testing.T) {
	path := writeFile(t, "agent.yaml", `
site: casino-1
mqtt:
  url: tcp://broker:1883
  ack_timeout: 2s
tables:
  - id: RE-03
    source: {journal: /tmp/re03.jsonl, speed: 1x}
`)
	env := map[string]string{
		"COUPWATCH_MQTT_URL":          "ssl://other:8883",
		"COUPWATCH_MQTT_PASSWORD":     "hunter2",
		"COUPWATCH_MQTT_USERNAME":     "agent",
		"COUPWATCH_STORE_RETENTION":   "48h",
		"COUPWATCH_MQTT_MAX_INFLIGHT": "16",
	}
	c, err := configs.Load(path, func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	checks := []struct {
		name      string
		got, want any
	}{
		{"site from file", c.Site, "casino-1"},
		{"url from env", c.MQTT.URL, "ssl://other:8883"},
		{"ack_timeout from file", c.MQTT.AckTimeout, 2 * time.Second},
		{"retention from env", c.Store.Retention, 48 * time.Hour},
		{"max_inflight from env", c.MQTT.MaxInflight, 16},
		{"password from env", c.MQTT.Password.Reveal(), "hunter2"},
		{"keepalive default", c.MQTT.KeepAlive, 30 * time.Second},
		{"table", c.Tables[0].ID, "RE-03"},
		{"speed", c.Tables[0].Source.Speed, "1x"},
	}
	for _, ch := range checks {
		if ch.got != ch.want {
			t.Errorf("%s = %v, want %v", ch.name, ch.got, ch.want)
		}
	}
}

func TestLoadErrors(t *testing.T) {
	tests := []struct {
		name string
		yaml string
		env  map[string]string
		want []string // substrings of the error
	}{
		{"unknown top key", "sight: x\n", nil, []string{"agent.yaml", "sight"}},
		{"unknown nested key", "mqtt:\n  urll: tcp://x:1\n", nil, []string{"agent.yaml", "mqtt", "urll"}},
		{"unknown key in a table", "tables:\n  - id: A\n    sauce: {}\n", nil, []string{"agent.yaml", "tables[0]", "sauce"}},
		{"bad duration", "mqtt:\n  ack_timeout: soon\n", nil, []string{"agent.yaml", "ack_timeout"}},
		{"bad env duration", "", map[string]string{"COUPWATCH_SHUTDOWN_DRAIN_TIMEOUT": "later"}, []string{"COUPWATCH_SHUTDOWN_DRAIN_TIMEOUT", "drain_timeout"}},
		{"bad yaml", "site: [\n", nil, []string{"agent.yaml"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := writeFile(t, "agent.yaml", tt.yaml)
			_, err := configs.Load(path, func(k string) string { return tt.env[k] })
			if err == nil {
				t.Fatal("Load succeeded")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
		})
	}
}

func TestValidate(t *testing.T) {
	tests := []struct {
		name   string
		mutate func(c *configs.Config)
		want   []string // every key path reported, in order
	}{
		{"valid", func(c *configs.Config) {}, nil},
		{"bad site and table ids", func(c *configs.Config) {
			c.Site = "a/b"
			c.Tables = append(c.Tables, configs.Table{ID: "RE+1", Source: configs.Source{Journal: "x"}}, configs.Table{ID: "T1", Source: configs.Source{Journal: "y"}})
		}, []string{"site", "tables[1].id", "tables[2].id"}},
		{"table without source, bad speed", func(c *configs.Config) {
			c.Tables[0].Source = configs.Source{Speed: "fast"}
		}, []string{"tables[0].source.journal", "tables[0].source.speed"}},
		{"paced and followed", func(c *configs.Config) {
			c.Tables = append(c.Tables, configs.Table{ID: "T2", Source: configs.Source{Journal: "t2.jsonl", Speed: "1x", Follow: true}},
				configs.Table{ID: "T3", Source: configs.Source{Journal: "t3.jsonl", Speed: "max", Follow: true}})
		}, []string{"tables[1].source.speed"}},
		{"mqtt", func(c *configs.Config) {
			c.MQTT.URL = "http://broker"
			c.MQTT.Password = "x"
			c.MQTT.PasswordFile = "/etc/pw"
			c.MQTT.TLS.CertFile = "c.pem"
			c.MQTT.MaxInflight = 0
			c.MQTT.AckTimeout = 0
		}, []string{"mqtt.url", "mqtt.password", "mqtt.username", "mqtt.tls", "mqtt.ack_timeout", "mqtt.max_inflight"}},
		{"url with credentials", func(c *configs.Config) { c.MQTT.URL = "tcp://u:p@broker:1883" }, []string{"mqtt.url"}},
		{"log and http", func(c *configs.Config) {
			c.Log.Level = "loud"
			c.Log.Format = "xml"
			c.HTTP.Listen = "9466"
		}, []string{"log.level", "log.format", "http.listen"}},
		{"store and outbox", func(c *configs.Config) {
			c.Store.Retention = time.Minute
			c.Outbox.SegmentBytes = 10
		}, []string{"outbox.segment_bytes", "store.retention"}},
		{"no tables", func(c *configs.Config) { c.Tables = nil }, []string{"tables"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := configs.Defaults()
			if err != nil {
				t.Fatal(err)
			}
			c.Tables = []configs.Table{{ID: "T1", Source: configs.Source{Journal: "t1.jsonl", Speed: "max"}}}
			tt.mutate(c)
			err = c.Validate()
			var got []string
			if err != nil {
				for _, line := range strings.Split(err.Error(), "\n") {
					key, _, _ := strings.Cut(line, ":")
					got = append(got, key)
				}
			}
			if fmt.Sprint(got) != fmt.Sprint(tt.want) {
				t.Errorf("Validate() keys = %v, want %v\n%v", got, tt.want, err)
			}
		})
	}
}

func TestSecretsRedacted(t *testing.T) {
	c, err := configs.Load("", func(k string) string {
		if k == "COUPWATCH_MQTT_PASSWORD" {
			return "s3cr3t-value"
		}
		return ""
	})
	if err != nil {
		t.Fatal(err)
	}
	var logBuf bytes.Buffer
	slog.New(slog.NewJSONHandler(&logBuf, nil)).Info("config", "config", c, "password", c.MQTT.Password)
	outputs := map[string]string{
		"String":  c.String(),
		"%v":      fmt.Sprintf("%v", c.MQTT),
		"%+v":     fmt.Sprintf("%+v", *c),
		"%#v":     fmt.Sprintf("%#v", c.MQTT.Password),
		"slog":    logBuf.String(),
		"Secret%": fmt.Sprintf("%s %v %q", c.MQTT.Password, c.MQTT.Password, c.MQTT.Password),
	}
	for name, out := range outputs {
		if strings.Contains(out, "s3cr3t") {
			t.Errorf("%s leaks the password: %s", name, out)
		}
		if !strings.Contains(out, "[redacted]") {
			t.Errorf("%s does not show [redacted]: %s", name, out)
		}
	}
	if c.MQTT.Password.Reveal() != "s3cr3t-value" {
		t.Error("Reveal lost the value")
	}
}

func TestPasswordFile(t *testing.T) {
	pw := writeFile(t, "pw", "from-file\n")
	c, err := configs.Defaults()
	if err != nil {
		t.Fatal(err)
	}
	c.MQTT.PasswordFile = pw
	got, err := c.Password()
	if err != nil || got.Reveal() != "from-file" {
		t.Fatalf("Password() = %q, %v", got.Reveal(), err)
	}
	c.MQTT.PasswordFile = filepath.Join(t.TempDir(), "missing")
	if _, err := c.Password(); err == nil || !strings.HasPrefix(err.Error(), "mqtt.password_file: ") {
		t.Errorf("missing password file: %v", err)
	}
	c.MQTT.URL = "ssl://broker:8883"
	c.MQTT.TLS.CAFile = pw
	if _, err := c.TLSConfig(); err == nil || !strings.HasPrefix(err.Error(), "mqtt.tls.ca_file: ") {
		t.Errorf("CA file without PEM: %v", err)
	}
}

func TestParseSpeed(t *testing.T) {
	tests := []struct {
		in   string
		want float64
		ok   bool
	}{
		{"", 0, true}, {"max", 0, true}, {"1x", 1, true}, {"2.5x", 2.5, true}, {"60x", 60, true},
		{"0x", 0, false}, {"-1x", 0, false}, {"fast", 0, false}, {"10", 0, false},
	}
	for _, tt := range tests {
		got, err := configs.ParseSpeed(tt.in)
		if (err == nil) != tt.ok || got != tt.want {
			t.Errorf("ParseSpeed(%q) = %v, %v", tt.in, got, err)
		}
	}
}

func TestExamples(t *testing.T) {
	files, err := filepath.Glob("examples/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no examples: %v", err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			c, err := configs.Load(f, noEnv)
			if err != nil {
				t.Fatal(err)
			}
			if err := c.Validate(); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestStringReadsBack: what String prints (and `agent --check` shows) reads durations as a
// person writes them, and loaded back as a configuration file gives the same configuration.
func TestStringReadsBack(t *testing.T) {
	c, err := configs.Load(writeFile(t, "c.yaml", "site: s1\nmqtt:\n  url: tcp://broker:1883\n  keepalive: 45s\nstore:\n  retention: 720h\ntables:\n  - id: T1\n    source: {journal: /tmp/t1.jsonl, speed: 10x}\n"), func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	s := c.String()
	for _, want := range []string{`"keepalive": "45s"`, `"retention": "720h0m0s"`, `"speed": "10x"`, `"site": "s1"`} {
		if !strings.Contains(s, want) {
			t.Errorf("String() lacks %s:\n%s", want, s)
		}
	}
	if strings.Index(s, `"site"`) > strings.Index(s, `"tables"`) {
		t.Errorf("String() does not keep the fields' order:\n%s", s)
	}
	back, err := configs.Load(writeFile(t, "back.yaml", s), func(string) string { return "" })
	if err != nil {
		t.Fatalf("String() does not load back: %v\n%s", err, s)
	}
	if !reflect.DeepEqual(back, c) {
		t.Errorf("loaded back:\n%+v\nwant\n%+v", back, c)
	}
}
