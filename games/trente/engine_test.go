package trente_test

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/coupwatch/coupwatch/games"
	"github.com/coupwatch/coupwatch/games/gamestest"
	"github.com/coupwatch/coupwatch/games/trente"
	"github.com/coupwatch/coupwatch/journal"
)

// journalOf builds a trente et quarante journal: rules is the table_open's rules object ("" for
// none), each event a JSON fragment without t and table.
func journalOf(rules string, events ...string) string {
	return gamestest.Table{ID: "TQ-T", Start: time.Date(2026, 11, 22, 22, 0, 0, 0, time.UTC), Game: "trente_et_quarante",
		Limits: `{"min":500,"max":100000}`, Rules: rules}.Journal(events...)
}

func catalog(t testing.TB) *games.Catalog {
	t.Helper()
	return gamestest.Catalog(t, trente.Games()...)
}

func tryRun(t *testing.T, src string) (gamestest.Output, error) {
	t.Helper()
	return gamestest.Replay(t, catalog(t), src)
}

func bet(spot, player string, amount int64) string {
	return fmt.Sprintf(`"type":"bet","spot":%q,"player":%q,"amount":%d`, spot, player, amount)
}

func money(kind, spot, player string, amount int64) string {
	return fmt.Sprintf(`"type":%q,"spot":%q,"player":%q,"amount":%d`, kind, spot, player, amount)
}

func choose(player, choice, spot string) string {
	return fmt.Sprintf(`"type":"action","player":%q,"action":%q,"spot":%q`, player, choice, spot)
}

func card(to, c string) string { return fmt.Sprintf(`"type":"card","to":%q,"card":%q`, to, c) }

// rows deals the noir row then the rouge row.
func rows(noir, rouge string) []string {
	var r []string
	for _, c := range strings.Fields(noir) {
		r = append(r, card("noir", c))
	}
	for _, c := range strings.Fields(rouge) {
		r = append(r, card("rouge", c))
	}
	return r
}

func coup(id string, parts ...any) []string {
	r := []string{fmt.Sprintf(`"type":"coup_start","coup":%q`, id)}
	for _, p := range parts {
		switch p := p.(type) {
		case string:
			r = append(r, p)
		case []string:
			r = append(r, p...)
		}
	}
	return append(r, `"type":"coup_end"`)
}

const rnvp = `"type":"no_more_bets","cause":"announce"`

// Rows used below: noir/rouge points and the first card's colour.
const (
	refait31a  = "9S 9D 8H 5C" // 31, black first card
	refait31b  = "TH KC 4D 7S" // 31
	black32    = "KS 9H 8C 5D" // 32, black first card
	red32      = "KH 9S 8C 5D" // 32, red first card
	thirtySix  = "QH 7D 6S 4C 9S"
	thirtyFive = "9H 8D 6C 5S 7H"
	thirty5b   = "KS QC 4D 3H 8C"
)

func TestCoups(t *testing.T) {
	four := []string{bet("noir", "P1", 1000), bet("rouge", "P2", 1000), bet("couleur", "P3", 1000), bet("inverse", "P4", 1000)}
	tests := []struct {
		name     string
		rules    string
		events   []string
		findings []string
		nets     []string
	}{
		{
			name:   "noir 32 beats 36 with a black first card: noir and couleur",
			events: coup("1", four, rnvp, rows(black32, thirtySix)),
			nets:   []string{"1 couleur P3 1000", "1 inverse P4 -1000", "1 noir P1 1000", "1 rouge P2 -1000"},
		},
		{
			name:   "noir 32 with a red first card: inverse",
			events: coup("1", four, rnvp, rows(red32, thirtySix)),
			nets:   []string{"1 couleur P3 -1000", "1 inverse P4 1000", "1 noir P1 1000", "1 rouge P2 -1000"},
		},
		{
			name:   "rouge wins with a red first card: couleur",
			events: coup("1", four, rnvp, rows(thirtySix, red32)),
			nets:   []string{"1 couleur P3 1000", "1 inverse P4 -1000", "1 noir P1 -1000", "1 rouge P2 1000"},
		},
		{
			name:   "equal points other than 31 push",
			events: coup("1", four, rnvp, rows(thirtyFive, thirty5b)),
			nets:   []string{"1 couleur P3 0", "1 inverse P4 0", "1 noir P1 0", "1 rouge P2 0"},
		},
		{
			name: "a refait with no choice recorded goes to prison, unless exactly half was collected",
			events: join(coup("1", bet("noir", "P1", 1000), bet("rouge", "P2", 1001), rnvp, rows(refait31a, refait31b), money("collect", "rouge", "P2", 501)),
				coup("2", rnvp, rows(black32, thirtySix))),
			nets: []string{"1 noir P1 0", "1 rouge P2 -501", "2 noir P1 0"},
		},
		{
			name:   "a house whose default at a refait is to share",
			rules:  `{"refait_choice":"share"}`,
			events: coup("1", bet("noir", "P1", 1000), rnvp, rows(refait31a, refait31b)),
			nets:   []string{"1 noir P1 -500"},
		},
		{
			name: "a prisoner stays in prison through a coup nul, then is lost",
			events: join(coup("1", bet("inverse", "P1", 1000), rnvp, rows(refait31a, refait31b), choose("P1", "prison", "inverse")),
				coup("2", rnvp, rows(thirtyFive, thirty5b)),
				coup("3", rnvp, rows(black32, thirtySix))),
			nets: []string{"1 inverse P1 0", "2 inverse P1 0", "3 inverse P1 -1000"},
		},
		{
			name:  "a house where a coup nul loses the prisoner",
			rules: `{"prisoner_on_tie":"lost"}`,
			events: join(coup("1", bet("inverse", "P1", 1000), rnvp, rows(refait31a, refait31b), choose("P1", "prison", "inverse")),
				coup("2", rnvp, rows(thirtyFive, thirty5b))),
			nets: []string{"1 inverse P1 0", "2 inverse P1 -1000"},
		},
		{
			name:  "a prisoner released after two refaits at full value (house option)",
			rules: `{"prison_release":"full"}`,
			events: join(coup("1", bet("noir", "P1", 1000), rnvp, rows(refait31a, refait31b), choose("P1", "prison", "noir")),
				coup("2", rnvp, rows(refait31a, refait31b), choose("P1", "prison", "noir")),
				coup("3", rnvp, rows(black32, thirtySix))),
			nets: []string{"1 noir P1 0", "2 noir P1 0", "3 noir P1 0"},
		},
		{
			name:     "a choice with no refait is reported",
			events:   coup("1", four, rnvp, rows(black32, thirtySix), choose("P1", "share", "noir")),
			findings: []string{"1:trente_et_quarante.refait_choice"},
		},
		{
			name: "refait insurance: the insured stake is returned whole, the premium is table income",
			events: coup("1", bet("noir", "P1", 5000), bet("insurance:noir", "P1", 50), money("collect", "insurance:noir", "P1", 50), rnvp,
				rows(refait31a, refait31b)),
			nets: []string{"1 insurance:noir P1 -50", "1 noir P1 0"},
		},
		{
			name:   "refait insurance written as the insured amount",
			events: coup("1", bet("noir", "P1", 5000), bet("insurance:noir", "P1", 5000), rnvp, rows(black32, thirtySix)),
			nets:   []string{"1 insurance:noir P1 -50", "1 noir P1 5000"},
		},
		{
			name:     "a premium that is not 1% of the stake, and insurance without a stake",
			events:   coup("1", bet("noir", "P1", 5000), bet("insurance:noir", "P1", 100), bet("insurance:rouge", "P2", 20), rnvp, rows(black32, thirtySix)),
			findings: []string{"1:trente_et_quarante.refait_insurance", "1:trente_et_quarante.refait_insurance"},
		},
		{
			name:     "a stake under the house's insurance threshold",
			rules:    `{"insurance_min":10000}`,
			events:   coup("1", bet("noir", "P1", 5000), bet("insurance:noir", "P1", 50), rnvp, rows(black32, thirtySix)),
			findings: []string{"1:trente_et_quarante.refait_insurance"},
		},
		{
			name:     "insurance paid after the cut-off is late",
			events:   coup("1", bet("noir", "P1", 5000), rnvp, bet("insurance:noir", "P1", 50), rows(black32, thirtySix)),
			findings: []string{"1:trente_et_quarante.late_bet"},
		},
		{
			name:     "the noir row dealt past 30",
			events:   coup("1", four, rnvp, rows(black32+" 2C", thirtySix)),
			findings: []string{"1:trente_et_quarante.deal"},
		},
		{
			name:     "the rouge row dealt past 30",
			events:   coup("1", four, rnvp, rows(black32, thirtySix+" AC")),
			findings: []string{"1:trente_et_quarante.deal"},
		},
		{
			name: "the first card closes the bets",
			events: coup("1", bet("noir", "P1", 1000), card("noir", "KS"), bet("rouge", "P2", 1000),
				rows("9H 8C 5D", thirtySix)),
			findings: []string{"1:trente_et_quarante.late_bet"},
			nets:     []string{"1 noir P1 1000", "1 rouge P2 -1000"},
		},
		{
			name:   "a no_more_bets recording the first card's cut-off is no breach",
			events: coup("1", bet("noir", "P1", 1000), card("noir", "KS"), `"type":"no_more_bets","cause":"first_card"`, rows("9H 8C 5D", thirtySix)),
			nets:   []string{"1 noir P1 1000"},
		},
		{
			name: "a stop card after the point is known: the last coup, its refait is shared",
			events: join(coup("1", bet("noir", "P1", 1000), bet("rouge", "P2", 1000), rnvp, rows(refait31a, refait31b), choose("P1", "prison", "noir"),
				card("stop", "XX"))),
			nets: []string{"1 noir P1 -500", "1 rouge P2 -500"},
		},
		{
			name:  "a house that keeps the prisoners when the partie ends",
			rules: `{"prison_at_end":"keep"}`,
			events: join(coup("1", bet("noir", "P1", 1000), rnvp, rows(refait31a, refait31b), choose("P1", "prison", "noir")),
				coup("2", bet("rouge", "P2", 1000), rnvp, rows(black32, "KH"), card("stop", "XX"))),
			nets: []string{"1 noir P1 0", "2 rouge P2 0"},
		},
		{
			name:     "a stop card from a continuous shuffler",
			rules:    `{"csm":true}`,
			events:   coup("1", bet("noir", "P1", 1000), rnvp, card("stop", "XX"), rows(black32, thirtySix)),
			findings: []string{"1:trente_et_quarante.stop_card"},
			nets:     []string{"1 noir P1 1000"},
		},
		{
			name:     "a card seen more often than the decks hold",
			rules:    `{"decks":1}`,
			events:   coup("1", bet("noir", "P1", 1000), rnvp, rows("KS KS 8C 5D", thirtySix)),
			findings: []string{"1:trente_et_quarante.card_count"},
		},
		{
			name: "a push taken and a winner underpaid",
			events: join(coup("1", bet("noir", "P1", 1000), rnvp, rows(black32, thirtySix), money("payout", "noir", "P1", 900)),
				coup("2", bet("rouge", "P2", 1000), rnvp, rows(thirtyFive, thirty5b), money("collect", "rouge", "P2", 1000))),
			findings: []string{"1:trente_et_quarante.payout", "2:trente_et_quarante.payout"},
		},
		{
			// One breach, one finding: the late stake's amount is not checked again.
			name:     "a late stake over the table maximum is the late bet only",
			events:   coup("1", bet("noir", "P1", 1000), rnvp, bet("rouge", "P2", 200000), rows(black32, thirtySix)),
			findings: []string{"1:trente_et_quarante.late_bet"},
			nets:     []string{"1 noir P1 1000", "1 rouge P2 -200000"},
		},
		{
			// The journal spec's refund «half back at zero» shows a share with no choice recorded.
			name:   "a refait with no choice recorded and half the stake refunded is a share",
			events: coup("1", bet("rouge", "P2", 2000), rnvp, rows(refait31a, refait31b), money("refund", "rouge", "P2", 1000)),
			nets:   []string{"1 rouge P2 -1000"},
		},
		{
			name:     "a stake under the table minimum",
			events:   coup("1", bet("noir", "P1", 100), rnvp, rows(black32, thirtySix)),
			findings: []string{"1:trente_et_quarante.bet_limit"},
		},
		{
			name:   "payment order: inverse, then noir or rouge",
			events: coup("1", four, rnvp, rows(red32, thirtySix), money("collect", "rouge", "P2", 1000), money("collect", "couleur", "P3", 1000), money("payout", "inverse", "P4", 1000), money("payout", "noir", "P1", 1000)),
		},
		{
			name:     "a house that does not check the order of payments",
			rules:    `{"payment_order":"off","collect_before_pay":false}`,
			events:   coup("1", four, rnvp, rows(red32, thirtySix), money("payout", "noir", "P1", 1000), money("payout", "inverse", "P4", 1000), money("collect", "rouge", "P2", 1000)),
			findings: []string{},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o, err := tryRun(t, journalOf(tt.rules, tt.events...))
			if err != nil {
				t.Fatal(err)
			}
			want := tt.findings
			if want == nil {
				want = []string{}
			}
			if got := o.Rules(); !reflect.DeepEqual(got, want) {
				t.Errorf("findings %v, want %v%s", got, want, o)
			}
			if tt.nets != nil {
				if got := o.Nets(); !reflect.DeepEqual(got, tt.nets) {
					t.Errorf("nets %v, want %v%s", got, tt.nets, o)
				}
			}
		})
	}
}

func join(parts ...[]string) []string {
	var r []string
	for _, p := range parts {
		r = append(r, p...)
	}
	return r
}

func TestCheck(t *testing.T) {
	g := trente.TrenteEtQuarante()
	tests := []struct {
		ev journal.Event
		ok bool
	}{
		{journal.Event{Type: journal.TypeBet, Spot: "noir"}, true},
		{journal.Event{Type: journal.TypeBet, Spot: "inverse"}, true},
		{journal.Event{Type: journal.TypeBet, Spot: "insurance:couleur"}, true},
		{journal.Event{Type: journal.TypeBet, Spot: "insurance:insurance:noir"}, false},
		{journal.Event{Type: journal.TypeBet, Spot: "insurance"}, false},
		{journal.Event{Type: journal.TypeBet, Spot: "red"}, false},
		{journal.Event{Type: journal.TypeCollect, Spot: "rouge"}, true},
		{journal.Event{Type: journal.TypeAction, Action: "share", Spot: "rouge"}, true},
		{journal.Event{Type: journal.TypeAction, Action: "share", Spot: "box:1"}, false},
		{journal.Event{Type: journal.TypeCard, To: "noir"}, true},
		{journal.Event{Type: journal.TypeCard, To: "stop"}, true},
		{journal.Event{Type: journal.TypeCard, To: "dealer"}, false},
		{journal.Event{Type: journal.TypeResult, Value: "noir"}, true}, // the tailleur's announcement (L621)
		{journal.Event{Type: journal.TypeSpin}, false},
	}
	for _, tt := range tests {
		ev := tt.ev
		if err := g.Check(&ev); (err == nil) != tt.ok {
			t.Errorf("%s %s%s: err = %v, want ok=%v", ev.Type, ev.Spot, ev.To, err, tt.ok)
		}
	}
}

func TestOptions(t *testing.T) {
	for _, rules := range []string{`{"refait_choice":"half"}`, `{"prisoner_on_tie":"free"}`, `{"insurance_min":-1}`, `{"zero_choice":"prison"}`} {
		if _, err := tryRun(t, journalOf(rules)); err == nil {
			t.Errorf("rules %s accepted", rules)
		}
	}
	if _, err := tryRun(t, journalOf(`{"decks":6,"csm":false,"refait_choice":"share","prison_release":"full","prisoner_on_tie":"lost","prison_at_end":"keep","insurance_min":500,"payment_order":"off","collect_before_pay":false,"rounding":"up"}`)); err != nil {
		t.Errorf("valid rules rejected: %v", err)
	}
}

// Burns between coup_end and coup_start (a card burnt for the next coup) belong to the next
// coup: they open none of their own.
func TestBurnsBetweenCoups(t *testing.T) {
	burn := card("burn", "XX")
	o, err := tryRun(t, journalOf("", join(coup("1", bet("noir", "P1", 1000), rnvp, rows(black32, thirtySix)),
		[]string{burn, burn}, coup("2", bet("noir", "P1", 1000), rnvp, rows(thirtySix, red32)))...))
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, c := range o.Coups {
		ids = append(ids, c.Coup+" "+c.Result)
	}
	if len(ids) != 2 || len(o.Findings) != 0 {
		t.Errorf("coups %q, findings %v; want coups 1 and 2 only, no finding", ids, o.Findings)
	}
}
