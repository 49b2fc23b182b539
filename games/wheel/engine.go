package wheel

import (
	"fmt"
	"strconv"
	"time"

	"github.com/coupwatch/coupwatch/games"
	"github.com/coupwatch/coupwatch/games/prison"
	"github.com/coupwatch/coupwatch/journal"
)

type variantKind uint8

const (
	european variantKind = iota
	american
	boule
	bigWheel
	fortune
)

// config is a variant's fixed rules plus the table's rules options.
type config struct {
	kind variantKind
	// minBallRevs (roulette, boule) and minTurns (wheels): 0 = not checked.
	minBallRevs float64
	minTurns    float64
	// alternate: the rotor (European roulette) or the wheel (roue de la chance) must turn the
	// other way from the previous spin.
	alternate bool
	// ballAgainstRotor: the ball is launched against the rotor (both roulettes).
	ballAgainstRotor bool
	// zeroChoice is what an even chance becomes at zero when the journal records no choice.
	zeroChoice prison.Choice
	// prisonRelease: "reduced" (a prisoner released after n zeros is worth 1/2^(n-1)) or "full".
	prisonRelease string
	// payOrder: "global", "per_player" or "off" (the regulation's order of payments by bet).
	payOrder string
	// collectFirst: losing stakes are collected before any winner is paid.
	collectFirst bool
	// ascending: players are paid in ascending order of their winnings (roue de la chance).
	ascending bool
	// includesStake: "N fois la mise" read as stake included (net N-1) at the big wheel.
	includesStake bool
	// voidShort: a spin under minTurns or obstructed voids the draw (roue de la chance).
	voidShort bool
	// maxPlayers at the table at once (0 = not checked).
	maxPlayers int
	// segMax is the per-player maximum per segment in multiples of the minimum.
	segMax map[string]int64
}

type ruleSet struct {
	payout, late, limit, revs, against, alternation, order, collectFirst, minTurns, obstruction, maxPlayers, zeroChoice games.Rule
	hasRevs, hasAgainst, hasAlternation, hasOrder, hasCollectFirst, hasMinTurns, hasObstruction, hasMaxPlayers, hasZero bool
	early, limitsFixed                                                                                                  games.Rule
	hasEarly, hasLimitsFixed                                                                                            bool
}

type engine struct {
	// limitsChanged is the table_open that changed the limits the same day, reported in the
	// first coup after it (limitsBefore the limits it replaced).
	limitsChanged *journal.Event
	limitsBefore  journal.Limits
	games.Base
	cfg   config
	segs  []segment
	rules ruleSet

	spots  map[string]bet
	stakes *games.Stakes
	// carry: the last draw was void and its stakes stand for the next spin.
	carry     bool
	prisoners []*prison.Prisoner
	// choices holds the share/prison decisions announced in the coup.
	choices *prison.Book

	result     int
	resultName string
	hasResult  bool
	void       string // why the draw is void ("" = valid)
	limitsDone bool
	// playersFlagged: too many players was reported in this coup (a re-spin reopens the bets
	// but the same table is not reported twice).
	playersFlagged bool
	// checked holds the amount each stake was judged at against the limits in this coup.
	checked map[games.StakeKey]int64
	// lateAt holds the last late change of each stake, judged against the limits at the end.
	lateAt map[games.StakeKey]*journal.Event
	// limitHit marks the stakes already reported outside the limits in this coup.
	limitHit map[games.StakeKey]bool

	lastDir string // the last spin's rotor (roulette) or wheel direction
	// prevDir is the direction of the previous coup's last spin; dirChecked is set once the
	// coup's first spin was compared with it. A relaunch in the same coup (an object fell into
	// the cylinder, AM 88-384 art. 8.1 L527; a re-spin after a void draw) is not a new coup.
	prevDir    string
	dirChecked bool
	// launch is the coup's last ball launch, judged when the ball drops.
	launch    journal.Event
	hasLaunch bool
	// seqAtResult is how many money events the coup had when its (last) result came.
	seqAtResult int
}

func newEngine(s games.Setup, cfg config, segs []segment) (*engine, error) {
	e := &engine{
		Base:     games.NewBase(s),
		cfg:      cfg,
		segs:     segs,
		spots:    make(map[string]bet, 64),
		stakes:   games.NewStakes(),
		choices:  prison.NewBook(),
		checked:  map[games.StakeKey]int64{},
		lateAt:   map[games.StakeKey]*journal.Event{},
		limitHit: map[games.StakeKey]bool{},
	}
	g := s.Game
	has := func(id string) (games.Rule, bool) {
		for _, r := range g.Rules {
			if r.ID == id {
				return r, true
			}
		}
		return games.Rule{}, false
	}
	prefix := rulePrefix(cfg.kind)
	r := &e.rules
	r.payout = g.Rule(prefix + ".payout")
	r.late = g.Rule(prefix + ".late_bet")
	r.limit = g.Rule(prefix + ".bet_limit")
	r.revs, r.hasRevs = has(prefix + ".min_ball_revolutions")
	r.against, r.hasAgainst = has(prefix + ".ball_against_rotor")
	if cfg.kind == european {
		r.alternation, r.hasAlternation = has(prefix + ".rotor_alternation")
	} else {
		r.alternation, r.hasAlternation = has(prefix + ".direction_alternation")
	}
	r.order, r.hasOrder = has(prefix + ".payment_order")
	r.collectFirst, r.hasCollectFirst = has(prefix + ".collect_before_pay")
	r.minTurns, r.hasMinTurns = has(prefix + ".min_turns")
	r.obstruction, r.hasObstruction = has(prefix + ".obstruction")
	r.maxPlayers, r.hasMaxPlayers = has(prefix + ".max_players")
	r.zeroChoice, r.hasZero = has(prefix + ".zero_choice")
	r.early, r.hasEarly = has(prefix + ".paid_before_result")
	r.limitsFixed, r.hasLimitsFixed = has(prefix + ".limits_change")
	if r.hasLimitsFixed && s.Prev != nil && s.Open != nil && s.Prev.Game == s.Open.Game && sameDay(s.Prev.T, s.Open.T) &&
		(s.Prev.Limits.Min != s.Open.Limits.Min || s.Prev.Limits.Max != s.Open.Limits.Max) {
		// F004 L281-L287: the limits hold until the next day's session; reported in the first
		// coup under the new ones.
		e.limitsChanged = s.Open
		e.limitsBefore = s.Prev.Limits
	}
	if cfg.kind == fortune {
		// The roue de la chance states it with its order of payments (F004 L253-L259).
		r.early, r.hasEarly = r.order, r.hasOrder
	}
	return e, nil
}

func rulePrefix(k variantKind) string {
	switch k {
	case european, american:
		return "roulette"
	case boule:
		return "boule"
	case bigWheel:
		return "big_wheel"
	}
	return "wheel_of_fortune"
}

// spot decodes a spot once per table. The runner has already checked it.
func (e *engine) spot(s string) bet {
	if b, ok := e.spots[s]; ok {
		return b
	}
	b, err := decodeSpot(e.cfg.kind, e.segs, s)
	if err != nil {
		// Unreachable after the runner's Check; an uncovered bet loses.
		b = bet{den: 1, label: s}
	}
	b.payText = ratio(b, e.cfg.includesStake && e.cfg.kind == bigWheel)
	e.spots[s] = b
	return b
}

func decodeSpot(k variantKind, segs []segment, s string) (bet, error) {
	switch k {
	case european:
		return rouletteSpot(s, false, europeanOrder)
	case american:
		return rouletteSpot(s, true, americanOrder)
	case boule:
		return bouleSpot(s)
	}
	i := segmentIndex(segs, s)
	if i < 0 {
		names := make([]string, len(segs))
		for j, sg := range segs {
			names[j] = sg.name
		}
		return bet{}, fmt.Errorf("spot %q cannot exist at this wheel (want one of %v)", s, names)
	}
	return bet{covers: 1 << uint(i), num: segs[i].pays, den: 1, label: s}, nil
}

// Payment orders. European roulette, AM 88-384 art. 8.3 (seed 001 L574): "colonnes et
// douzaines, chances simples, transversales, carrés, chevaux et, en dernier lieu, numéros pleins".
func europeanOrder(kind string) int {
	switch kind {
	case "column", "dozen", "columns", "dozens":
		return 0
	case "red", "black", "odd", "even", "high", "low":
		return 1
	case "street", "line":
		return 2
	case "corner":
		return 3
	case "split":
		return 4
	}
	return 5 // straight
}

// American roulette, AM 88-384 art. 4.2 (seed 001 L168): "colonne, passe, impair, noir, rouge,
// pair, manque, douzaine, transversale, rectangle, carré, chevaux et, en dernier lieu, le numéro plein".
func americanOrder(kind string) int {
	switch kind {
	case "column":
		return 0
	case "high":
		return 1
	case "odd":
		return 2
	case "black":
		return 3
	case "red":
		return 4
	case "even":
		return 5
	case "low":
		return 6
	case "dozen":
		return 7
	case "street", "line":
		return 8
	case "basket":
		return 9
	case "corner":
		return 10
	case "split":
		return 11
	}
	return 12 // straight
}

// Apply implements games.Engine through the shared coup lifecycle (games.Base.Step).
func (e *engine) Apply(ev *journal.Event, out []games.Record) []games.Record {
	return e.Step(e, ev, out)
}

// Event implements games.Hooks: every event but coup_start and coup_end.
func (e *engine) Event(ev *journal.Event) {
	switch ev.Type {
	case journal.TypeBet:
		e.Ensure(e, ev)
		e.bet(ev)
	case journal.TypeNoMoreBets:
		e.Ensure(e, ev)
		e.cutOff(ev)
	case journal.TypeSpin:
		e.Ensure(e, ev)
		e.spin(ev)
	case journal.TypeResult:
		e.Ensure(e, ev)
		e.setResult(ev)
	case journal.TypeAction:
		e.Ensure(e, ev)
		e.action(ev)
	case journal.TypePayout, journal.TypeCollect, journal.TypeRefund, journal.TypeRake:
		e.Ensure(e, ev)
		e.Money.Add(ev)
	}
}

// Close implements games.Engine: the open coup is closed at the end of the input.
func (e *engine) Close(out []games.Record) []games.Record {
	return e.Finish(e, out)
}

// CoupStarted implements games.Hooks: the per-coup state is reset.
func (e *engine) CoupStarted(ev *journal.Event) {
	if open := e.limitsChanged; open != nil {
		e.limitsChanged = nil
		was, now := e.limitsBefore, open.Limits
		e.Find(open, e.rules.limitsFixed, "", "",
			games.Text("limits "+games.FormatCents(was.Min)+" to "+games.FormatCents(was.Max)+" until the next day's session"),
			games.Text("limits "+games.FormatCents(now.Min)+" to "+games.FormatCents(now.Max)),
			fmt.Sprintf("the table was reopened the same day with limits %s to %s instead of %s to %s; the limits set at the opening hold until the next day's session",
				games.FormatCents(now.Min), games.FormatCents(now.Max), games.FormatCents(was.Min), games.FormatCents(was.Max)))
	}
	if e.carry {
		// The previous draw was void: its stakes stand for this spin.
		for _, st := range e.stakes.All() {
			st.Late = false
		}
		e.carry = false
	} else {
		e.stakes.Reset()
	}
	e.choices.Reset()
	clear(e.checked)
	clear(e.lateAt)
	clear(e.limitHit)
	e.hasResult, e.void, e.limitsDone, e.playersFlagged, e.seqAtResult = false, "", false, false, 0
	e.prevDir, e.dirChecked = e.lastDir, false
	e.resultName = ""
}

func (e *engine) bet(ev *journal.Event) {
	prev := int64(0)
	st := e.stakes.Get(games.StakeKey{Spot: ev.Spot, Player: ev.Player})
	if st == nil && prison.Restates(e.prisoners, ev) {
		return
	}
	if st != nil {
		prev = st.Amount
		if ev.Amount == prev {
			// A restatement: a stake that stood through a void draw keeps the coup it was
			// placed in, so its limits are not judged a second time.
			st.Evidence.Add(ev)
			return
		}
	}
	late := e.Coup.CutOff && ev.Amount != prev
	st, _ = e.stakes.Set(ev, e.Coup.ID, late)
	if late {
		e.LateBet(ev, e.rules.late, prev)
		if e.limitsDone {
			// Judged once, on the amount it plays for, when the spin is over (judgeLate).
			e.lateAt[st.StakeKey] = ev.Clone()
		}
	}
}

// judgeLate checks the stakes changed after the cut-off against the limits, once each at the
// amount that plays, and counts the players again: a late stake may have brought one more.
func (e *engine) judgeLate() {
	if len(e.lateAt) == 0 {
		return
	}
	var last *journal.Event
	for _, st := range e.stakes.All() {
		at, ok := e.lateAt[st.StakeKey]
		if !ok {
			continue
		}
		if last == nil || at.Line > last.Line {
			last = at
		}
		if amount, seen := e.checked[st.StakeKey]; st.Amount > 0 && (!seen || amount != st.Amount) {
			e.checkLimit(st, at)
		}
	}
	clear(e.lateAt)
	if last != nil {
		e.checkPlayers(last)
	}
}

// cutOff closes the bets: from here a stake change is late. Limits are checked on the stakes
// as they stand at the cut-off.
func (e *engine) cutOff(ev *journal.Event) {
	if e.Coup.CutOff {
		return
	}
	e.CloseBets(ev)
	e.checkLimits(ev)
}

func (e *engine) checkLimits(at *journal.Event) {
	if e.limitsDone {
		return
	}
	e.limitsDone = true
	for _, st := range e.stakes.All() {
		if st.Coup != e.Coup.ID {
			continue // carried over from a void draw: checked when placed
		}
		if amount, ok := e.checked[st.StakeKey]; ok && amount == st.Amount {
			continue // judged at this amount before a re-spin reopened the bets
		}
		e.checkLimit(st, at)
	}
	e.checkPlayers(at)
}

// checkPlayers reports, once a coup, more players with stakes on the layout than the wheel
// takes (F004 L223-L224).
func (e *engine) checkPlayers(at *journal.Event) {
	if e.cfg.maxPlayers == 0 || !e.rules.hasMaxPlayers || e.playersFlagged {
		return
	}
	players := map[string]bool{}
	for _, st := range e.stakes.All() {
		players[st.Player] = true
	}
	if len(players) > e.cfg.maxPlayers {
		e.playersFlagged = true
		var ex games.Evidence
		for _, st := range e.stakes.All() {
			ex.Merge(st.Evidence)
		}
		e.Find(at, e.rules.maxPlayers, "", "", games.Text(fmt.Sprintf("at most %d players", e.cfg.maxPlayers)),
			games.Text(fmt.Sprintf("%d players", len(players))),
			fmt.Sprintf("%d players have stakes on the layout; the wheel takes at most %d at once", len(players), e.cfg.maxPlayers), ex)
	}
}

func (e *engine) checkLimit(st *games.Stake, at *journal.Event) {
	min, max := e.Limits.For(st.Spot)
	if m, ok := e.cfg.segMax[st.Spot]; ok && m > 0 && e.Limits.Min > 0 {
		// Roue de la chance: per-colour maximum in multiples of the minimum (F004 L272-L280),
		// unless the table's limits set that colour's own maximum.
		if o, exact := e.Limits.Spots[st.Spot]; !exact || o.Max == 0 {
			if cm := m * e.Limits.Min; max == 0 || cm < max {
				max = cm
			}
		}
	}
	e.checked[st.StakeKey] = st.Amount
	if e.limitHit[st.StakeKey] {
		return // one stake outside the limits is one finding in the coup, however often changed
	}
	if (min > 0 && st.Amount < min) || (max > 0 && st.Amount > max) {
		e.limitHit[st.StakeKey] = true
	}
	e.CheckLimit(st, min, max, e.rules.limit, at)
}

func (e *engine) spin(ev *journal.Event) {
	c := e.cfg
	switch c.kind {
	case european, american, boule:
		// The launch is judged when the ball drops (judgeLaunch): a launch stopped because an
		// object fell into the cylinder is relaunched (AM 88-384 L158, L527), and only the
		// relaunch, the last spin before the result, decides the coup.
		if !e.hasResult {
			e.launch, e.hasLaunch = *ev, true // the reader reuses its events
		}
		if c.alternate && e.rules.hasAlternation && ev.RotorDir != "" {
			// AM 88-384 art. 8.1 (L527): the cylinder turns the other way from the previous
			// coup. A relaunch of the ball in the same coup (L527: an object fell into the
			// cylinder) keeps the cylinder as it was: only the coup's first spin is compared.
			if !e.dirChecked && e.prevDir != "" && ev.RotorDir == e.prevDir {
				e.Find(ev, e.rules.alternation, "", "", games.Text("rotor "+other(e.prevDir)), games.Text("rotor "+ev.RotorDir),
					fmt.Sprintf("the rotor turned %s again; it must turn the other way from the previous spin", dirWord(ev.RotorDir)))
			}
			e.dirChecked = true
			e.lastDir = ev.RotorDir
		}
	case bigWheel, fortune:
		if c.kind == fortune && e.void != "" && e.Coup.CutOff {
			// F004 L244-L251: each spin is made «en annonçant : faites vos jeux», and the bets
			// stay open while the wheel turns fast: a re-spin of a void draw reopens them until
			// the next «rien ne va plus».
			e.judgeLate()
			e.Coup.CutOff, e.limitsDone = false, false
		}
		if !e.hasResult || e.void != "" {
			// A new spin replaces a void one (F004 L245-L246: the wheel is spun again), the
			// void draw's result included; it is judged on its own.
			e.void, e.hasResult = "", false
		}
		revs, hasRevs := ev.Revs, ev.HasRevs
		if !hasRevs && ev.HasBallRevs {
			revs, hasRevs = ev.BallRevs, true
		}
		if hasRevs && c.minTurns > 0 && revs < c.minTurns && e.rules.hasMinTurns {
			detail := fmt.Sprintf("the wheel made %s turns; it must make at least %s", num(revs), num(c.minTurns))
			if c.voidShort {
				detail += ": the draw is not valid and the stakes stand for the next spin"
				e.void = fmt.Sprintf("void: %s turns", num(revs))
			}
			e.Find(ev, e.rules.minTurns, "", "", games.Text(fmt.Sprintf("at least %s turns", num(c.minTurns))),
				games.Text(fmt.Sprintf("%s turns", num(revs))), detail)
		}
		dir := ev.Dir
		if dir == "" {
			dir = ev.RotorDir
		}
		if c.alternate && e.rules.hasAlternation && dir != "" {
			// F004 L244: «actionner chaque fois le cylindre dans un sens opposé au précédent»:
			// every spin, a re-spin of a void draw included, turns the wheel the other way from
			// the spin before it (unlike the roulette ball relaunched in a turning cylinder).
			if e.lastDir != "" && dir == e.lastDir {
				e.Find(ev, e.rules.alternation, "", "", games.Text("wheel "+other(e.lastDir)), games.Text("wheel "+dir),
					fmt.Sprintf("the wheel was spun %s again; it must turn the other way from the previous spin", dirWord(dir)))
			}
			e.dirChecked = true
			e.lastDir = dir
		}
		if ev.Obstructed && e.rules.hasObstruction {
			e.void = "void: wheel obstructed"
			e.Find(ev, e.rules.obstruction, "", "", games.Text("wheel turning freely"), games.Text("obstructed"),
				"the wheel was obstructed while turning: the draw is void and the stakes stand for the next spin")
		}
		if c.kind == bigWheel {
			// AM 88-384 art. 7 (L499): stakes are placed before the croupier spins the wheel.
			e.cutOff(ev)
		}
	}
}

func num(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

func other(dir string) string {
	if dir == "cw" {
		return "ccw"
	}
	return "cw"
}

func dirWord(dir string) string {
	if dir == "cw" {
		return "clockwise"
	}
	return "anticlockwise"
}

// judgeLaunch checks the coup's last ball launch (roulette, boule): at least minBallRevs
// revolutions, against the rotor.
func (e *engine) judgeLaunch() {
	if !e.hasLaunch {
		return
	}
	ev, c := &e.launch, e.cfg
	e.hasLaunch = false
	revs, hasRevs := ev.BallRevs, ev.HasBallRevs
	if !hasRevs && ev.HasRevs {
		revs, hasRevs = ev.Revs, true
	}
	if hasRevs && c.minBallRevs > 0 && revs < c.minBallRevs && e.rules.hasRevs {
		e.Find(ev, e.rules.revs, "", "", games.Text(fmt.Sprintf("at least %s ball revolutions", num(c.minBallRevs))),
			games.Text(fmt.Sprintf("%s revolutions", num(revs))),
			fmt.Sprintf("the ball made %s revolutions; the regulation requires at least %s", num(revs), num(c.minBallRevs)))
	}
	if c.ballAgainstRotor && e.rules.hasAgainst && ev.BallDir != "" && ev.RotorDir != "" && ev.BallDir == ev.RotorDir {
		e.Find(ev, e.rules.against, "", "", games.Text("ball launched against the rotor"),
			games.Text("ball and rotor both "+ev.BallDir),
			fmt.Sprintf("the ball was launched %s, the same way as the rotor; it must go against it", dirWord(ev.BallDir)))
	}
}

func (e *engine) setResult(ev *journal.Event) {
	e.judgeLaunch()
	e.cutOff(ev)
	e.hasResult = true
	e.seqAtResult = len(e.Money.Seq)
	e.resultName = ev.Value
	e.Coup.Evidence.Add(ev)
	switch e.cfg.kind {
	case european, american:
		e.result, _ = parsePocket(ev.Value, e.cfg.kind == american)
	case boule:
		e.result = int(ev.Value[0] - '0')
	default:
		e.result = segmentIndex(e.segs, ev.Value)
	}
}

func (e *engine) action(ev *journal.Event) {
	if e.cfg.kind != european {
		return
	}
	e.choices.Record(ev)
}

// FinishCoup settles the stakes against the result and closes the coup.
func (e *engine) FinishCoup(ev *journal.Event) {
	e.judgeLaunch()
	e.judgeLate()
	switch {
	case e.void != "":
		e.Coup.Result = e.void
		for _, st := range e.stakes.All() {
			e.Settle(&games.Settlement{Spot: st.Spot, Player: st.Player, Stake: st.Amount, Outcome: games.Void,
				Detail: "the draw is void; the stake stands for the next spin", Evidence: st.Evidence})
		}
		e.carry = true
		if e.hasResult {
			// Money moved before the void draw's result is moved before a result all the same.
			e.checkEarlyMoney(ev)
		}
	case !e.hasResult:
		e.Coup.Result = "no result"
	default:
		e.Coup.Result = e.resultName
		e.settle()
		e.checkOrder(ev)
	}
	if !e.limitsDone && e.stakes.Len() > 0 {
		e.checkLimits(ev)
	}
	if e.void == "" && !e.hasResult {
		// No result seen: nothing can be settled, and the money the dealer moved cannot be
		// judged either (the camera may have missed the ball).
		e.Money.Reset()
	}
	if !e.dirChecked {
		// No spin direction seen in this coup (a camera gap): the next coup has nothing to be
		// compared with.
		e.lastDir = ""
	}
	e.EndCoup(ev, e.rules.payout)
}

func (e *engine) settle() {
	zero := (e.cfg.kind == european || e.cfg.kind == american) && (e.result == 0 || e.result == pocket00)

	// Prisoners of earlier zeros (European roulette, AM 88-384 art. 8.2, L554-L556).
	if len(e.prisoners) > 0 {
		held := e.prisoners
		e.prisoners = nil
		for _, p := range held {
			e.settlePrisoner(p, zero)
		}
	}

	for _, st := range e.stakes.All() {
		b := e.spot(st.Spot)
		s := &games.Settlement{Spot: st.Spot, Player: st.Player, Stake: st.Amount, Evidence: st.Evidence}
		switch {
		case b.wins(e.result):
			s.Outcome = games.Win
			s.Expected = e.pays(st.Amount, b)
			s.Detail = e.resultName + " wins on " + st.Spot + ", paid " + b.payText
		case zero && b.simple && e.cfg.kind == european:
			e.zeroChoice(st, s, 1)
		default:
			s.Outcome = games.Lose
			s.Expected = -st.Amount
			s.Detail = st.Spot + " loses on " + e.resultName
			if e.cfg.kind == boule && e.result == 5 && b.simple {
				s.Detail = "5 came: every even chance loses (art. 10.2)"
			}
		}
		e.Settle(s)
	}
	if !e.rules.hasZero || e.choices.Len() == 0 {
		return
	}
	for _, u := range e.choices.Unused() {
		why := "zero did not come"
		if zero {
			why = "the choice applies only to a stake on an even chance"
		}
		e.Find(nil, e.rules.zeroChoice, u.Key.Spot, u.Key.Player, games.Text("no choice"), games.Text(string(u.Choice)),
			fmt.Sprintf("%s chose %s on %s, but %s", u.Key.Player, u.Choice, u.Where(), why), u.Evidence)
	}
}

// zeroChoice settles an even chance at zero (AM 88-384 art. 8.2, L551-L556): the player takes
// back half (outcome half) or leaves the stake in prison (expected 0 now). zeros counts the zeros
// the stake has seen, this one included.
func (e *engine) zeroChoice(st *games.Stake, s *games.Settlement, zeros int) {
	k := st.StakeKey
	// With no choice recorded, a collect of exactly the halved stake shows the player shared.
	at := prison.ShareZeros(zeros, e.cfg.prisonRelease == "reduced")
	choice, ex := e.choices.Decide(k, st.Amount, at, e.cfg.zeroChoice, e.Round, e.Money)
	s.Evidence.Merge(ex)
	if choice == prison.Share {
		back := prison.ShareBack(e.Round, st.Amount, at)
		s.Outcome = games.Half
		s.Expected = back - st.Amount
		s.Detail = fmt.Sprintf("zero: the even chance is shared, %s handed back", games.FormatCents(back))
		return
	}
	s.Outcome = games.Prison
	s.Expected = 0
	s.Detail = "zero: the even chance goes to prison"
	p := &prison.Prisoner{Key: k, Initial: st.Amount, Zeros: zeros}
	p.Evidence.Merge(s.Evidence)
	e.prisoners = append(e.prisoners, p)
}

func (e *engine) settlePrisoner(p *prison.Prisoner, zero bool) {
	b := e.spot(p.Key.Spot)
	s := &games.Settlement{Spot: p.Key.Spot, Player: p.Key.Player, Stake: p.Initial, Evidence: p.Evidence}
	switch {
	case zero:
		// Zero again: the same choice, the stake having lost half its value at each zero (L556).
		st := &games.Stake{StakeKey: p.Key, Amount: p.Initial}
		e.zeroChoice(st, s, p.Zeros+1)
		s.Detail += fmt.Sprintf(" (zero number %d for this stake)", p.Zeros+1)
	case b.wins(e.result):
		value := prison.ReleaseValue(e.Round, p.Initial, p.Zeros, e.cfg.prisonRelease == "reduced")
		s.Outcome = games.Released
		s.Expected = value - p.Initial
		s.Detail = fmt.Sprintf("%s: the stake in prison is released unpaid", e.resultName)
		if value != p.Initial {
			s.Detail += fmt.Sprintf(", worth %s after %d zeros", games.FormatCents(value), p.Zeros)
		}
	default:
		s.Outcome = games.Lose
		s.Expected = -p.Initial
		s.Detail = fmt.Sprintf("%s: the stake in prison is lost", e.resultName)
	}
	e.Settle(s)
}

func (e *engine) pays(stake int64, b bet) int64 {
	n, d := b.num, b.den
	if e.cfg.kind == bigWheel && e.cfg.includesStake {
		n-- // "N fois la mise" read as N for 1: net N-1
	}
	return e.Round.Due(stake, n, d)
}

func ratio(b bet, includes bool) string {
	n := b.num
	if includes {
		n--
	}
	if b.den == 1 {
		return fmt.Sprintf("%d to 1", n)
	}
	return fmt.Sprintf("%d to %d", n, b.den)
}

// checkOrder checks the order in which the dealer collected and paid.
func (e *engine) checkOrder(ev *journal.Event) {
	seq := e.Money.Seq
	if len(seq) == 0 {
		return
	}
	due := e.DueByStake()
	e.checkEarlyMoney(ev)
	if e.cfg.collectFirst && e.rules.hasCollectFirst {
		firstPay := -1
		for i, m := range seq {
			// Only a winner's payment and a loser's collection take part in the order: a loser
			// paid or a winner collected is a wrong payout, reported once as such.
			if m.Type == journal.TypePayout && firstPay < 0 && due[m.Key] > 0 && i >= e.seqAtResult {
				firstPay = i // a payment before the result is its own finding
			}
			if m.Type == journal.TypeCollect && firstPay >= 0 && due[m.Key] < 0 {
				var ex games.Evidence
				ex.AddRef(seq[firstPay].Line, "")
				ex.AddRef(m.Line, "")
				e.Find(ev, e.rules.collectFirst, m.Key.Spot, m.Key.Player, games.Text("losing stakes collected before any payment"),
					games.Text("collected after a payment"),
					fmt.Sprintf("%s's stake on %s was collected after %s on %s had been paid; losers are collected first",
						m.Key.Player, m.Key.Spot, seq[firstPay].Key.Player, seq[firstPay].Key.Spot), ex)
				break
			}
		}
	}
	if e.cfg.ascending && e.rules.hasOrder {
		e.checkAscending(ev, due)
		return
	}
	if e.cfg.payOrder == "off" || !e.rules.hasOrder || (e.cfg.kind != european && e.cfg.kind != american) {
		return
	}
	perPlayer := e.cfg.payOrder == "per_player"
	type mark struct {
		rank int
		at   games.MoneyEvent
	}
	highest := map[string]mark{}
	// One finding per order breached: the table's one order, or each player's own (per_player).
	breached := map[string]bool{}
	for i, m := range seq {
		if m.Type != journal.TypePayout || !games.AsDue(due, m) || i < e.seqAtResult {
			continue // a payment before the result is its own finding (paid_before_result)
		}
		r := e.spot(m.Key.Spot).order
		scope := ""
		if perPlayer {
			scope = m.Key.Player
		}
		if breached[scope] {
			continue
		}
		h, seen := highest[scope]
		if seen && r < h.rank {
			var ex games.Evidence
			ex.AddRef(h.at.Line, "")
			ex.AddRef(m.Line, "")
			e.Find(ev, e.rules.order, m.Key.Spot, m.Key.Player, games.Text(fmt.Sprintf("%s paid before %s", m.Key.Spot, h.at.Key.Spot)),
				games.Text(fmt.Sprintf("%s paid after %s", m.Key.Spot, h.at.Key.Spot)),
				fmt.Sprintf("%s on %s was paid after %s on %s; the regulation's order of payments puts it first",
					m.Key.Player, m.Key.Spot, h.at.Key.Player, h.at.Key.Spot), ex)
			breached[scope] = true
			continue
		}
		if !seen || r > h.rank {
			highest[scope] = mark{rank: r, at: m}
		}
	}
}

// checkEarlyMoney reports the first stake settled before the result: the croupier collects and
// pays once the ball or the wheel has stopped and the result is announced (roulette AM 88-384
// L562-L564, L164-L166; big wheel L511; roue de la chance F004 L253-L257).
func (e *engine) checkEarlyMoney(ev *journal.Event) {
	if e.rules.hasEarly {
		e.SettledEarly(ev, e.rules.early, e.Money.Seq, e.seqAtResult, nil, "the result")
	}
}

// checkAscending checks the roue de la chance order (F004 L257-L259): losers first, then the
// players in ascending order of their winnings.
func (e *engine) checkAscending(ev *journal.Event, due map[games.StakeKey]int64) {
	winnings := map[string]int64{}
	for _, s := range e.Pending() {
		if s.Expected > 0 {
			winnings[s.Player] += s.Expected
		}
	}
	var order []string
	seen := map[string]bool{}
	firstPay, lateCollect := -1, false
	for i, m := range e.Money.Seq {
		switch m.Type {
		case journal.TypeCollect:
			// A winner collected is a wrong payout, not a collection out of order. Losers first
			// and payments in ascending order are two obligations: each breach is its own finding.
			if firstPay >= 0 && due[m.Key] < 0 && !lateCollect {
				lateCollect = true
				var ex games.Evidence
				ex.AddRef(e.Money.Seq[firstPay].Line, "")
				ex.AddRef(m.Line, "")
				e.Find(ev, e.rules.order, m.Key.Spot, m.Key.Player, games.Text("losers collected first"), games.Text("collected after a payment"),
					fmt.Sprintf("%s's losing stake on %s was collected after payments had begun; losers are collected first", m.Key.Player, m.Key.Spot), ex)
			}
		case journal.TypePayout:
			if due[m.Key] <= 0 {
				continue // a loser paid: a wrong payout, not a payment out of order
			}
			if i < e.seqAtResult {
				// A payment before the result is its own finding (checkEarlyMoney), neither the
				// start of the payments the losers must precede nor a place in their order.
				continue
			}
			if firstPay < 0 {
				firstPay = i
			}
			if !seen[m.Key.Player] {
				seen[m.Key.Player] = true
				order = append(order, m.Key.Player)
			}
		}
	}
	for i := 1; i < len(order); i++ {
		if winnings[order[i]] < winnings[order[i-1]] {
			e.Find(ev, e.rules.order, "", order[i], games.Text(fmt.Sprintf("%s (wins %s) paid before %s (wins %s)", order[i], games.FormatCents(winnings[order[i]]), order[i-1], games.FormatCents(winnings[order[i-1]]))),
				games.Text(fmt.Sprintf("%s paid after %s", order[i], order[i-1])),
				fmt.Sprintf("%s was paid before %s although %s's winnings are smaller; players are paid in ascending order of winnings", order[i-1], order[i], order[i]))
			return
		}
	}
}

// sameDay reports whether b falls on a's calendar day, in a's time offset.
func sameDay(a, b time.Time) bool {
	b = b.In(a.Location())
	ay, am, ad := a.Date()
	by, bm, bd := b.Date()
	return ay == by && am == bm && ad == bd
}
