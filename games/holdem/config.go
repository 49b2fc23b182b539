package holdem

import (
	"encoding/json"
	"fmt"
	"math"
	"sort"

	"github.com/coupwatch/coupwatch/games"
)

type rakeMode uint8

const (
	rakePercent rakeMode = iota
	rakeFixed
	rakeHourly
	rakeFrance
	rakeNone
)

// bracket is one step of a rake scale: from a threshold (a pot amount in cents, or an hour of
// play) the levy is amount.
type bracket struct {
	from   int64
	amount int64
}

// config is the table's rules options.
type config struct {
	rake rakeMode
	// bp is the rate in hundredths of a percent (500 = 5 %).
	bp            int64
	cap           int64
	brackets      []bracket // fixed: by pot amount; hourly: by hour of play
	buyIn         int64
	rakeRound     games.Rounding
	capThenRound  bool
	noFlopNoDrop  bool
	incrementRule bool // min_raise = increment
	returnUncalld bool // uncalled_bet = return
	oddToHouse    bool
	headsUpButton bool // heads_up = button_small_blind
	smallBlind    int64
	bigBlind      int64
}

func parseConfig(o *games.Options) config {
	var c config
	if o == nil {
		o, _ = games.ParseOptions(game, nil)
	}
	mode := o.Enum("rake", "percent", "percent", "fixed", "hourly", "france", "none")
	switch mode {
	case "fixed":
		c.rake = rakeFixed
	case "hourly":
		c.rake = rakeHourly
	case "france":
		c.rake = rakeFrance
	case "none":
		c.rake = rakeNone
	}
	defPct := 5.0
	if c.rake == rakeFrance {
		// Arrêté of 14 May 2007 art. 57-2 (F004 L717): 4 % of each pot.
		defPct = 4
	}
	pct := o.Float("rake_percent", defPct, 0, 100)
	c.bp = int64(math.Round(pct * 100))
	if math.Abs(float64(c.bp)-pct*100) > 1e-6 {
		o.Fail("rake_percent", "at most two decimals, got %g", pct)
	}
	c.cap = o.Int("rake_cap", 0, 0, math.MaxInt64/2)
	c.buyIn = o.Int("buy_in", 0, 0, math.MaxInt64/1000)
	if o.Has("cave") {
		// The regulation's word for the buy-in.
		if o.Has("buy_in") {
			o.Fail("cave", "is another name for rules.buy_in: give one of them")
		}
		c.buyIn = o.Int("cave", 0, 0, math.MaxInt64/1000)
	}
	def := games.Rounding{Unit: 1, Mode: games.RoundDown}
	if c.rake == rakeFrance {
		// F004 L725: «arrondi au demi-euro supérieur».
		def = games.Rounding{Unit: 50, Mode: games.RoundUp}
	}
	c.rakeRound = parseRounding(o, "rake_rounding", def)
	c.capThenRound = o.Enum("rake_cap_order", "round_then_cap", "round_then_cap", "cap_then_round") == "cap_then_round"
	c.noFlopNoDrop = o.Bool("no_flop_no_drop", false)
	c.incrementRule = o.Enum("min_raise", "double", "double", "increment") == "increment"
	c.returnUncalld = o.Enum("uncalled_bet", "pot", "pot", "return") == "return"
	c.oddToHouse = o.Enum("odd_chip", "left_of_button", "left_of_button", "house") == "house"
	c.headsUpButton = o.Enum("heads_up", "literal", "literal", "button_small_blind") == "button_small_blind"
	c.smallBlind = o.Int("small_blind", 0, 0, math.MaxInt64/4)
	c.bigBlind = o.Int("big_blind", 0, 0, math.MaxInt64/4)
	if c.smallBlind > 0 && c.bigBlind > 0 && (c.bigBlind < c.smallBlind || c.bigBlind > 2*c.smallBlind) {
		// AM 2008-761 art. 1 (seed 003 L43): the big blind is between the small blind and twice it.
		o.Fail("big_blind", "must be between the small blind and twice it (%d..%d), got %d", c.smallBlind, 2*c.smallBlind, c.bigBlind)
	}

	var raw []struct {
		From     *int64 `json:"from"`
		FromHour *int64 `json:"from_hour"`
		Amount   *int64 `json:"amount"`
	}
	key := ""
	switch c.rake {
	case rakeFixed:
		key = "rake_brackets"
	case rakeHourly:
		key = "rake_hourly"
	}
	for _, k := range []string{"rake_brackets", "rake_hourly"} {
		if k == key {
			continue
		}
		if o.Has(k) {
			o.Fail(k, "applies only when rules.rake is %s", map[string]string{"rake_brackets": "fixed", "rake_hourly": "hourly"}[k])
		}
	}
	if key != "" {
		if !o.Object(key, &raw) {
			if !o.Has(key) {
				o.Fail(key, "is required when rules.rake is %s", mode)
			}
		}
		for i, r := range raw {
			from := r.From
			if c.rake == rakeHourly {
				from = r.FromHour
				if r.From != nil {
					o.Fail(fmt.Sprintf("%s[%d]", key, i), `use "from_hour" (hours of play), not "from"`)
				}
			} else if r.FromHour != nil {
				o.Fail(fmt.Sprintf("%s[%d]", key, i), `use "from" (a pot amount in cents), not "from_hour"`)
			}
			if from == nil || r.Amount == nil || *from < 0 || *r.Amount < 0 {
				o.Fail(fmt.Sprintf("%s[%d]", key, i), "needs a threshold and an amount, neither negative")
				continue
			}
			c.brackets = append(c.brackets, bracket{from: *from, amount: *r.Amount})
		}
		sort.SliceStable(c.brackets, func(i, j int) bool { return c.brackets[i].from < c.brackets[j].from })
		for i := 1; i < len(c.brackets); i++ {
			if c.brackets[i].from == c.brackets[i-1].from {
				o.Fail(key, "two brackets start at %d", c.brackets[i].from)
			}
		}
	}
	return c
}

// parseRounding reads a rounding option shaped like rules.rounding: "down", "up", "nearest",
// a unit in cents, or {"unit": 50, "mode": "up"}.
func parseRounding(o *games.Options, key string, def games.Rounding) games.Rounding {
	raw, ok := o.Raw(key)
	if !ok {
		return def
	}
	r := def
	setMode := func(s string) bool {
		switch s {
		case "down":
			r.Mode = games.RoundDown
		case "up":
			r.Mode = games.RoundUp
		case "nearest":
			r.Mode = games.RoundNearest
		default:
			return false
		}
		return true
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		if !setMode(s) {
			o.Fail(key, "must be down, up or nearest, got %q", s)
		}
		return r
	}
	var unit int64
	if json.Unmarshal(raw, &unit) == nil {
		if unit < 1 {
			o.Fail(key, "unit must be at least 1 cent, got %d", unit)
			return def
		}
		r.Unit = unit
		return r
	}
	var obj struct {
		Unit *int64 `json:"unit"`
		Mode string `json:"mode"`
	}
	if !o.Object(key, &obj) {
		return def
	}
	if obj.Unit != nil {
		if *obj.Unit < 1 {
			o.Fail(key+".unit", "must be at least 1 cent, got %d", *obj.Unit)
		} else {
			r.Unit = *obj.Unit
		}
	}
	if obj.Mode != "" && !setMode(obj.Mode) {
		o.Fail(key+".mode", "must be down, up or nearest, got %q", obj.Mode)
	}
	return r
}

// franceCap returns the French cap on the rake of one pot for an initial buy-in (arrêté of
// 14 May 2007 art. 57-2, F004 L717-L723), 0 when there is none (buy-in under 500 €).
func franceCap(buyIn int64) int64 {
	var pct int64
	switch {
	case buyIn >= 5_000_000:
		pct = 1
	case buyIn >= 1_000_000:
		pct = 3
	case buyIn >= 500_000:
		pct = 5
	case buyIn >= 100_000:
		pct = 10
	case buyIn >= 50_000:
		pct = 15
	default:
		return 0
	}
	return buyIn * pct / 100
}
