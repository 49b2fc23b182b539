package dice

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/coupwatch/coupwatch/games"
	"github.com/coupwatch/coupwatch/journal"
)

// The colours of the rampo layout. F002 L9: "les numéros 2, 7 et 12 sont blancs, les numéros
// 3 et 8 sont rouges, 4 et 9 sont jaunes, 5 et 10 sont verts, 6 et 11 sont noirs".
func colourOf(n int) string {
	switch n {
	case 3, 8:
		return "red"
	case 4, 9:
		return "yellow"
	case 5, 10:
		return "green"
	case 6, 11:
		return "black"
	}
	return "white"
}

// rampoSpot is a decoded rampo spot: a colour or a number.
type rampoSpot struct {
	colour string // "" for a number
	n      int
}

func parseRampoSpot(s string) (rampoSpot, error) {
	kind, arg, ok := strings.Cut(s, ":")
	if ok && kind == "colour" {
		switch arg {
		case "red", "black", "green", "yellow", "white":
			return rampoSpot{colour: arg}, nil
		}
		return rampoSpot{}, fmt.Errorf("spot %q: the colours are red, black, green, yellow and white", s)
	}
	if ok && kind == "number" {
		n, err := strconv.Atoi(arg)
		if err != nil || n < 2 || n > 12 || strconv.Itoa(n) != arg {
			return rampoSpot{}, fmt.Errorf("spot %q: the numbers are 2 to 12", s)
		}
		return rampoSpot{n: n}, nil
	}
	return rampoSpot{}, fmt.Errorf("spot %q is not a rampo spot (colour:red|black|green|yellow|white, number:2..12)", s)
}

// payTable is a wording's pay table: what a number pays (net, the winner keeps his stake) on
// the throw and on a rampo, and the maximum stakes in multiples of the minimum.
type payTable struct {
	base, rampo           [13]int64
	numberMax, colourMax  int64
	name                  string
	consolidated          bool
	sevenEndsTurnDefault  bool
	minimumStakeFloorCent int64
}

// payTableFor returns the pay table of a rules.paytable value: "2014" is the text of the
// arrêté of 30 Dec 2014 (F004 L668-L674, L689-L691); "A" and "B" are the tables of the later
// consolidated wording (F002 L85-L105, L131-L135). The 2014 numbers equal table B.
func payTableFor(name string) payTable {
	b := [13]int64{2: 30, 3: 15, 4: 9, 5: 6, 6: 5, 7: 4, 8: 5, 9: 6, 10: 9, 11: 15, 12: 30}
	bRampo := [13]int64{2: 170, 3: 40, 4: 30, 5: 22, 6: 12, 8: 12, 9: 22, 10: 30, 11: 40, 12: 170}
	switch name {
	case "A":
		return payTable{
			base:      [13]int64{2: 25, 3: 12, 4: 9, 5: 6, 6: 5, 7: 4, 8: 5, 9: 6, 10: 9, 11: 12, 12: 25},
			rampo:     [13]int64{2: 70, 3: 24, 4: 18, 5: 12, 6: 10, 8: 10, 9: 12, 10: 18, 11: 24, 12: 70},
			numberMax: 20, colourMax: 100, name: "table A", consolidated: true, minimumStakeFloorCent: 100,
		}
	case "B":
		return payTable{base: b, rampo: bRampo, numberMax: 20, colourMax: 100, name: "table B", consolidated: true, minimumStakeFloorCent: 100}
	}
	return payTable{base: b, rampo: bRampo, numberMax: 40, colourMax: 200, name: "2014 table", sevenEndsTurnDefault: true}
}

// colourPays is what a colour pays, net: 4 times the stake, white 3 times (F004 L664-L666,
// F002 L77-L81).
func colourPays(colour string) int64 {
	if colour == "white" {
		return 3
	}
	return 4
}

type rampoConfig struct {
	table         payTable
	sevenEndsTurn bool
	declinePays   string // "base" or "table_minimum"
	failure       string // "lose" or "push"
	choice        string // what a winning number becomes with no choice recorded: "rampo" or "decline"
	payOrder      bool
	repeat        int
	maxPlayers    int
}

type rampoRules struct {
	payout, late, limit, void, repeated, shooterBet, diceChange, dicePass, maxPlayers, order games.Rule
}

// held is a winning number stake reserved for the next throw (the rampo zone).
type held struct {
	key      games.StakeKey
	number   int
	amount   int64
	evidence games.Evidence
	coup     string
}

type rampoEngine struct {
	games.Base
	cfg   rampoConfig
	rules rampoRules

	spots    map[string]rampoSpot
	stakes   *games.Stakes
	carried  map[games.StakeKey]bool // stakes standing after a void throw
	reserved []*held
	turns    turns
	carry    bool

	// The open coup.
	thrown     bool
	void       bool
	thrownN    int            // the valid throw's total
	thrownAt   games.Evidence // its line
	throwSeq   int            // money events of the coup before its valid throw (a held number taken back)
	result     string
	limitsDone bool
	winners    []*games.Stake // number stakes won on this throw (not 7), awaiting the player's choice
	choices    map[games.StakeKey]string
	choiceEv   map[games.StakeKey]games.Evidence
	rampoWon   map[games.StakeKey]bool
	rampoLost  map[games.StakeKey]bool
	declined   map[games.StakeKey]bool
}

func newRampo(s games.Setup, cfg rampoConfig) *rampoEngine {
	g := s.Game
	return &rampoEngine{
		Base:      games.NewBase(s),
		cfg:       cfg,
		spots:     make(map[string]rampoSpot, 16),
		stakes:    games.NewStakes(),
		carried:   make(map[games.StakeKey]bool),
		turns:     newTurns(cfg.repeat),
		choices:   make(map[games.StakeKey]string),
		choiceEv:  make(map[games.StakeKey]games.Evidence),
		rampoWon:  make(map[games.StakeKey]bool),
		rampoLost: make(map[games.StakeKey]bool),
		declined:  make(map[games.StakeKey]bool),
		rules: rampoRules{
			payout: g.Rule("rampo.payout"), late: g.Rule("rampo.late_bet"), limit: g.Rule("rampo.bet_limit"),
			void: g.Rule("rampo.void_throw"), repeated: g.Rule("rampo.repeated_violations"),
			shooterBet: g.Rule("rampo.shooter_bet"), diceChange: g.Rule("rampo.dice_change_during_rampo"),
			dicePass: g.Rule("rampo.dice_pass"), maxPlayers: g.Rule("rampo.max_players"), order: g.Rule("rampo.payment_order"),
		},
	}
}

func (e *rampoEngine) spot(s string) rampoSpot {
	if sp, ok := e.spots[s]; ok {
		return sp
	}
	sp, err := parseRampoSpot(s)
	if err != nil {
		sp = rampoSpot{colour: "none"} // unreachable after Check: loses
	}
	e.spots[s] = sp
	return sp
}

// Apply implements games.Engine through the shared coup lifecycle (games.Base.Step).
func (e *rampoEngine) Apply(ev *journal.Event, out []games.Record) []games.Record {
	return e.Step(e, ev, out)
}

// Event implements games.Hooks: every event but coup_start and coup_end.
func (e *rampoEngine) Event(ev *journal.Event) { dispatch(&e.Base, e, ev) }

// Close implements games.Engine: the open coup is closed at the end of the input.
func (e *rampoEngine) Close(out []games.Record) []games.Record {
	return e.Finish(e, out)
}

// CoupStarted implements games.Hooks: the per-coup state is reset.
func (e *rampoEngine) CoupStarted(ev *journal.Event) {
	e.turns.startCoup()
	if e.carry {
		// The last throw was void: its stakes stand for this one (F004 L649-L650).
		for _, st := range e.stakes.All() {
			e.carried[st.StakeKey] = true
		}
		e.carry = false
	} else {
		e.stakes.Reset()
		clear(e.carried)
	}
	e.thrown, e.void, e.limitsDone, e.result = false, false, false, ""
	e.throwSeq = 0
	clear(e.winners)
	e.winners = e.winners[:0]
	clear(e.choices)
	clear(e.choiceEv)
	clear(e.rampoWon)
	clear(e.rampoLost)
	clear(e.declined)
}

func (e *rampoEngine) bet(ev *journal.Event) {
	k := games.StakeKey{Spot: ev.Spot, Player: ev.Player}
	existing := e.stakes.Get(k)
	// A bet on a number held for the rampo is a new stake on the layout: the held one lies in
	// the rampo zone (F004 L684-L685) and carries over without being written again, and
	// the rampo throw settles the new bets placed for it too.
	if existing == nil && ev.Amount == 0 {
		// Taking back a stake held for the rampo: paid at once (F004 L680-L681).
		if h := e.heldFor(k); h != nil {
			e.decline(h, ev)
		}
		return
	}
	if existing != nil && e.thrown && !e.void && e.afterThrow(ev, k, existing) {
		return
	}
	if existing == nil && e.thrown && !e.void && e.Settled(k) > 0 && e.Money.Get(k) != nil {
		// A held stake this throw decided and the croupier settled: a stake put back on the
		// number is for the next throw; taken back (0), there is nothing left to take.
		if ev.Amount > 0 {
			e.HoldForNextCoup(ev)
		}
		return
	}
	prev := int64(0)
	if existing != nil {
		prev = existing.Amount
	}
	if ev.Amount == prev {
		existing.Evidence.Add(ev)
		return // a restatement
	}
	// A stake the throw decided, changed afterwards: it is settled again as changed (raised:
	// on the new amount; taken back: not at all), as at craps.
	decided := existing != nil && e.thrown && !e.void && e.Settled(k) > 0
	redecide := decided
	if redecide {
		e.Unsettle(k)
	}
	late := e.Coup.CutOff
	if late {
		// F004 L658 / F002 L73: no stake after «rien ne va plus»; it is settled as placed.
		e.LateBet(ev, e.rules.late, prev)
	}
	st, _ := e.stakes.Set(ev, e.Coup.ID, late)
	delete(e.carried, k)
	if (existing == nil || redecide) && e.thrown && !e.void && st.Amount > 0 {
		// A stake placed after the dice came to rest (past-posting): the late bet is the
		// finding, and the stake is settled as placed, on the throw it was placed after.
		e.decide(st, e.thrownN, e.thrownAt)
		return
	}
	if late && e.limitsDone && st.Amount > 0 {
		e.checkLimit(st, ev)
	}
}

// afterThrow handles a bet on a stake the valid throw of the coup decided, and reports
// whether it did. A winner may take his stake back, before or after his payment: «Dans tous
// les cas, le joueur gagnant conserve sa mise et peut la retirer» (F004 L679); a winning
// number taken back so takes its win now, at the base rate (L680-L681). Once the croupier
// has paid or collected the stake, a new amount on it is the stake for the next throw. Neither
// is late: the throw is over.
func (e *rampoEngine) afterThrow(ev *journal.Event, k games.StakeKey, existing *games.Stake) bool {
	pending := slices.ContainsFunc(e.winners, func(st *games.Stake) bool { return st.StakeKey == k })
	settled := e.Settled(k) > 0
	if !pending && !settled {
		return false
	}
	won := pending || e.settledWin(k)
	paid := e.Money.Get(k) != nil
	switch {
	case ev.Amount == 0 && won:
		if pending {
			decline := *ev
			decline.Action = "decline"
			e.choose(k, &decline)
		}
		existing.Evidence.Add(ev)
		return true
	case ev.Amount == 0 && paid:
		return true // a stake lost and collected: nothing left to take
	case ev.Amount > 0 && paid:
		// The stake for the next throw (a winner leaving his, L679, or a new one): it is
		// placed there when that coup opens.
		e.HoldForNextCoup(ev)
		return true
	}
	return false
}

// settledWin reports whether the stake of k was settled as a win in this coup.
func (e *rampoEngine) settledWin(k games.StakeKey) bool {
	for _, s := range e.Pending() {
		if s.Spot == k.Spot && s.Player == k.Player {
			return s.Outcome == games.Win
		}
	}
	return false
}

func (e *rampoEngine) heldFor(k games.StakeKey) *held {
	for _, h := range e.reserved {
		if h.key == k {
			return h
		}
	}
	return nil
}

func (e *rampoEngine) action(ev *journal.Event) {
	k := games.StakeKey{Spot: ev.Spot, Player: ev.Player}
	switch ev.Action {
	case "shooter":
		// F004 L654-L657 (2014 wording): the 7 loses the shooter the dice.
		if why := e.turns.name(ev.Player, false, false); why != "" {
			e.Find(ev, e.rules.dicePass, "", ev.Player, games.Text("the dice offered to the next player"),
				games.Text(ev.Player+" shooting"), why)
		}
	case "change_dice":
		// F004 L644-L645, F002 L61: no change of dice during a rampo attempt.
		if e.attempting() {
			e.Find(ev, e.rules.diceChange, "", ev.Player, games.Text("the same dice for the rampo attempt"),
				games.Text("dice changed"),
				fmt.Sprintf("the dice were changed at %s's request during a rampo attempt; the throw still counts", ev.Player))
		}
	case "rampo", "decline":
		if ev.Spot == "" {
			// No spot: the choice covers every winning number of the player.
			for _, st := range e.winners {
				if st.Player == ev.Player {
					e.choose(st.StakeKey, ev)
				}
			}
			if ev.Action == "decline" && len(e.winners) == 0 {
				for _, h := range append([]*held(nil), e.reserved...) {
					if h.key.Player == ev.Player {
						e.decline(h, ev)
					}
				}
			}
			return
		}
		for _, st := range e.winners {
			if st.StakeKey == k {
				e.choose(k, ev)
				return
			}
		}
		if ev.Action == "decline" {
			// Taking back a held stake before the rampo throw (F004 L680-L681).
			if h := e.heldFor(k); h != nil {
				e.decline(h, ev)
			}
		}
	}
}

func (e *rampoEngine) choose(k games.StakeKey, ev *journal.Event) {
	e.choices[k] = ev.Action
	ex := e.choiceEv[k]
	ex.Add(ev)
	e.choiceEv[k] = ex
}

// attempting reports whether a rampo attempt is under way: stakes are held for the next
// throw, or a winner of this throw chose to try the rampo.
func (e *rampoEngine) attempting() bool {
	if len(e.reserved) > 0 {
		return true
	}
	for _, c := range e.choices {
		if c == "rampo" {
			return true
		}
	}
	return false
}

// decline pays a held stake its first win now and takes it out of the rampo zone.
// decline pays a held stake taken back before the rampo throw (a bet of 0 or an action
// decline); after «rien ne va plus» that is a withdrawal too late (F004 L658).
func (e *rampoEngine) decline(h *held, ev *journal.Event) {
	if e.Coup.CutOff {
		w := *ev
		w.Spot, w.Player, w.Amount = h.key.Spot, h.key.Player, 0
		e.LateBet(&w, e.rules.late, h.amount)
	}
	for i, x := range e.reserved {
		if x == h {
			e.reserved = append(e.reserved[:i], e.reserved[i+1:]...)
			break
		}
	}
	s := &games.Settlement{Spot: h.key.Spot, Player: h.key.Player, Stake: h.amount, Evidence: h.evidence}
	s.Evidence.Add(ev)
	e.payDeclined(s, h.number)
	e.declined[h.key] = true
	e.Settle(s)
}

// payDeclined settles a winning number taken now instead of tried for the rampo: the base
// rate (F004 L680-L681 «payée au minimum prévu», F002 L69), or the table minimum.
func (e *rampoEngine) payDeclined(s *games.Settlement, n int) {
	s.Outcome = games.Win
	if e.cfg.declinePays == "table_minimum" {
		s.Expected = e.Limits.Min
		s.Detail = fmt.Sprintf("%d: the winning number is taken before the rampo, paid the table minimum", n)
		return
	}
	s.Expected = e.Round.Due(s.Stake, e.cfg.table.base[n], 1)
	s.Detail = fmt.Sprintf("%d: the winning number is taken before the rampo, paid %d times the stake", n, e.cfg.table.base[n])
}

func (e *rampoEngine) cutOff(ev *journal.Event) {
	if e.Coup.CutOff {
		return
	}
	e.CloseBets(ev)
	e.checkLimits(ev)
}

func (e *rampoEngine) checkLimits(at *journal.Event) {
	if e.limitsDone {
		return
	}
	e.limitsDone = true
	players := map[string]bool{}
	fresh := false // a stake placed for this coup, not one standing after a coup nul
	for _, st := range e.stakes.All() {
		players[st.Player] = true
		if !e.carried[st.StakeKey] {
			fresh = true
			e.checkLimit(st, at)
		}
	}
	for _, h := range e.reserved {
		players[h.key.Player] = true
	}
	// F004 L631, F002 L51: at most eight players at a table. Stakes that stand through a coup
	// nul were counted in the coup they were placed in.
	if e.cfg.maxPlayers > 0 && len(players) > e.cfg.maxPlayers && fresh {
		var ex games.Evidence
		for _, st := range e.stakes.All() {
			ex.Merge(st.Evidence)
		}
		e.Find(at, e.rules.maxPlayers, "", "", games.Text(fmt.Sprintf("at most %d players", e.cfg.maxPlayers)),
			games.Text(fmt.Sprintf("%d players", len(players))),
			fmt.Sprintf("%d players have stakes on the layout; a rampo table takes at most %d", len(players), e.cfg.maxPlayers), ex)
	}
}

// checkLimit applies the maxima of the wording in force (F004 L689-L691: 40 times the minimum
// on the numbers, 200 times on the colours; F002 L131-L135: 20 and 100 times) unless the
// table's limits override the spot.
func (e *rampoEngine) checkLimit(st *games.Stake, at *journal.Event) {
	min, max := e.Limits.For(st.Spot)
	_, exact := e.Limits.Spots[st.Spot]
	_, byKind := e.Limits.Spots[journal.SpotKind(st.Spot)]
	if !exact && !byKind {
		base := e.Limits.Min
		if floor := e.cfg.table.minimumStakeFloorCent; base < floor {
			// F002 L133: the minimum may not be under 1 euro.
			base, min = floor, floor
		}
		if base > 0 {
			if e.spot(st.Spot).colour != "" {
				max = e.cfg.table.colourMax * base
			} else if cap := e.cfg.table.numberMax * base; max == 0 || cap < max {
				max = cap
			}
		}
	}
	e.CheckLimit(st, min, max, e.rules.limit, at)
}

func (e *rampoEngine) hasStake(player string) bool {
	for _, st := range e.stakes.All() {
		if st.Player == player && st.Amount > 0 {
			return true
		}
	}
	for _, h := range e.reserved {
		if h.key.Player == player {
			return true
		}
	}
	return false
}

func (e *rampoEngine) throw(ev *journal.Event) {
	e.cutOff(ev)
	if e.thrown && !e.void {
		// A second throw in one coup: the winners of the first one make their choice now.
		e.resolveWinners()
	}
	e.thrown = true
	shooter := e.turns.shooter
	if shooter != "" && !e.hasStake(shooter) {
		// F004 L658-L660, F002 L73: the shooter has placed a stake before throwing.
		e.Find(ev, e.rules.shooterBet, "", shooter, games.Text("a stake on the layout"), games.Text("none"),
			shooter+" threw the dice without a stake on the layout")
	}
	if len(ev.Faults) > 0 || len(ev.Values) != 2 {
		e.voidThrow(ev, shooter)
		return
	}
	e.void = false
	e.throwSeq = len(e.Money.Seq)
	d1, d2 := ev.Values[0], ev.Values[1]
	n := d1 + d2
	colour := colourOf(n)
	e.result = fmt.Sprintf("%d %s (%d-%d)", n, colour, d1, d2)
	var at games.Evidence
	at.Add(ev)

	// The rampo zone: a held number pays the rampo rate when the number repeats (F004 L653,
	// L669-L673; F002 L67-L71); otherwise the stake and its first win are lost (F002 L71; the
	// 2014 text is silent: rules.failed_rampo).
	for _, h := range e.reserved {
		s := &games.Settlement{Spot: h.key.Spot, Player: h.key.Player, Stake: h.amount, Evidence: h.evidence}
		s.Evidence.Merge(at)
		switch {
		case n == h.number:
			s.Outcome = games.Win
			s.Expected = e.Round.Due(h.amount, e.cfg.table.rampo[h.number], 1)
			s.Detail = fmt.Sprintf("%d again: rampo, paid %d times the stake", n, e.cfg.table.rampo[h.number])
			e.rampoWon[h.key] = true
		case e.cfg.failure == "push":
			s.Outcome = games.Push
			s.Detail = fmt.Sprintf("%d after %d: the rampo fails, the first win is lost and the stake handed back", n, h.number)
			e.rampoLost[h.key] = true
		default:
			s.Outcome = games.Lose
			s.Expected = -h.amount
			s.Detail = fmt.Sprintf("%d after %d: the rampo fails, the stake and the first win are lost", n, h.number)
			e.rampoLost[h.key] = true
		}
		e.Settle(s)
	}
	clear(e.reserved)
	e.reserved = e.reserved[:0]

	for _, st := range e.stakes.All() {
		e.decide(st, n, at)
	}
	e.thrownN, e.thrownAt = n, at
	// F004 L654-L657: the 7 loses the shooter the dice (2014 wording).
	e.turns.valid(e.CoupID(), n == 7 && e.cfg.sevenEndsTurn)
}

// decide settles one stake on the throw n: a colour or the 7 paid at once, a winning number
// left to its player's choice, the rest lost.
func (e *rampoEngine) decide(st *games.Stake, n int, at games.Evidence) {
	colour := colourOf(n)
	sp := e.spot(st.Spot)
	s := &games.Settlement{Spot: st.Spot, Player: st.Player, Stake: st.Amount, Evidence: st.Evidence}
	s.Evidence.Merge(at)
	switch {
	case sp.colour != "" && sp.colour == colour:
		s.Outcome = games.Win
		s.Expected = e.Round.Due(st.Amount, colourPays(colour), 1)
		s.Detail = fmt.Sprintf("%d is %s: paid %d times the stake", n, colour, colourPays(colour))
	case sp.colour == "" && sp.n == n && n == 7:
		// F004 L674, L676: the 7 pays 4 times at once; there is no rampo on 7.
		s.Outcome = games.Win
		s.Expected = e.Round.Due(st.Amount, e.cfg.table.base[7], 1)
		s.Detail = fmt.Sprintf("7: paid %d times the stake at once", e.cfg.table.base[7])
	case sp.colour == "" && sp.n == n:
		// A winning number waits for the player's choice (F004 L676-L681, F002 L67-L71).
		e.winners = append(e.winners, st)
		return
	default:
		s.Outcome = games.Lose
		s.Expected = -st.Amount
		s.Detail = fmt.Sprintf("%d %s: %s loses", n, colour, st.Spot)
	}
	e.Settle(s)
}

// voidThrow reports a «coup nul»: nothing is decided and the stakes stand (F004 L647-L651,
// F002 L63).
func (e *rampoEngine) voidThrow(ev *journal.Event, shooter string) {
	e.void = true
	why := faultWords(ev.Faults)
	if why == "" {
		why = "only one die seen"
	}
	e.result = "coup nul (" + why + ")"
	e.Find(ev, e.rules.void, "", shooter, games.Text("a regular throw"), games.Text(why),
		fmt.Sprintf("irregular throw (%s): «coup nul», nothing is decided and any payment on it is wrong", why))
	if n, repeated := e.turns.fault(shooter); repeated {
		// F004 L650-L651, F002 L65: the turn may be withdrawn after repeated violations.
		e.Find(ev, e.rules.repeated, "", shooter, games.Text(fmt.Sprintf("fewer than %d irregular throws", e.cfg.repeat)),
			games.Text(fmt.Sprintf("%d irregular throws", n)),
			fmt.Sprintf("%s has made %d irregular throws: the chef de table may withdraw his turn to throw", shooter, n))
	}
}

// resolveWinners applies each player's choice on his winning number: taken now (paid the base
// rate) or held for the rampo. With no choice recorded, a payment shows the player took the
// win; otherwise rules.default_choice applies (the 2014 text holds winners automatically).
func (e *rampoEngine) resolveWinners() {
	for _, st := range e.winners {
		k := st.StakeKey
		choice, ok := e.choices[k]
		if !ok {
			choice = e.cfg.choice
			if e.paidBeyondPending(k) {
				choice = "decline"
			}
		}
		n := e.spot(st.Spot).n
		ev := st.Evidence
		ev.Merge(e.choiceEv[k])
		if choice == "decline" {
			s := &games.Settlement{Spot: st.Spot, Player: st.Player, Stake: st.Amount, Evidence: ev}
			e.payDeclined(s, n)
			e.declined[k] = true
			e.Settle(s)
			continue
		}
		e.reserved = append(e.reserved, &held{key: k, number: n, amount: st.Amount, evidence: ev, coup: e.CoupID()})
	}
	clear(e.winners)
	e.winners = e.winners[:0]
}

// paidBeyondPending reports whether the journal shows money for a stake beyond what the coup's
// settlements already account for: with no choice recorded, a payment (or a collection) of a
// winning number shows the player took the win now. A held number of the same player that
// repeated on this throw is on the same spot: its rampo payment does not count.
func (e *rampoEngine) paidBeyondPending(k games.StakeKey) bool {
	o := e.Money.Get(k)
	if o == nil || (o.Paid == 0 && o.Collects == 0) {
		return false
	}
	var pending int64
	for _, s := range e.Pending() {
		if s.Spot == k.Spot && s.Player == k.Player {
			pending += s.Expected
		}
	}
	return o.Net(0) != pending
}

func (e *rampoEngine) FinishCoup(ev *journal.Event) {
	if !e.limitsDone && e.stakes.Len() > 0 {
		e.checkLimits(ev)
	}
	switch {
	case !e.thrown:
		e.result = "no throw"
		e.Money.Reset() // nothing decided; the money moved cannot be judged
		e.carry = true
	case e.void:
		e.carry = true
	default:
		e.resolveWinners()
		if e.cfg.payOrder {
			e.checkOrder(ev)
		}
	}
	e.standingMoney()
	e.Coup.Result = e.result
	e.EndCoup(ev, e.rules.payout)
}

// standingMoney settles at 0 the stakes the journal shows money for although nothing was due
// in this coup (a coup nul, a number held for the rampo), so the wrong payment is reported with
// the reason.
func (e *rampoEngine) standingMoney() {
	keys := e.Money.Keys()
	if len(keys) == 0 {
		return
	}
	for _, k := range keys {
		if hasSettlement(e.Pending(), k) {
			continue
		}
		s := &games.Settlement{Spot: k.Spot, Player: k.Player}
		if st := e.stakes.Get(k); st != nil && e.void {
			s.Stake, s.Outcome, s.Evidence = st.Amount, games.Void, st.Evidence
			s.Detail = "coup nul: nothing is decided and the stake stands"
		} else if h := e.heldFor(k); h != nil {
			s.Stake, s.Outcome, s.Evidence = h.amount, games.Push, h.evidence
			s.Detail = "the winning number is held for the rampo: nothing is due before the next throw"
		} else {
			continue
		}
		e.Settle(s)
	}
}

// payClass is where a payment falls in the order of payments.
func (e *rampoEngine) payClass(k games.StakeKey) (class string, rank int) {
	sp := e.spot(k.Spot)
	switch {
	case e.rampoWon[k] && e.declined[k]:
		// A held number repeated and a new stake of the same player on it taken at once: the
		// journal's money on that spot cannot tell the two payments apart.
		return "", -1
	case e.rampoWon[k]:
		if e.cfg.table.consolidated {
			return "the rampo zone", 4
		}
		return "the rampo zone", 0
	case sp.colour != "":
		return "colours", 1
	case sp.n == 7:
		return "the 7", 2
	case e.declined[k]:
		return "numbers taken without a rampo", 3
	}
	return "", -1
}

// checkOrder checks the croupier's order: losing stakes are collected first (F004 L682-L683,
// F002 L115-L117); then the 2014 text pays the rampo zone before the colours (F004
// L683-L685), while the consolidated wording pays colours, then the 7, then the numbers of
// players not trying the rampo, and the rampo zone last (F002 L119-L125). The order is that of
// the payments after the throw (F004 L682: «A l'annonce du numéro et de la couleur gagnants»): a
// held number taken back before the throw (L680-L681) is paid outside it.
func (e *rampoEngine) checkOrder(ev *journal.Event) {
	firstPay := -1
	top, topAt := -1, -1
	// Only a winner's payment and a loser's collection take part in the order: a loser paid or
	// a winner collected is a wrong payout, reported once as such.
	due := e.DueByStake()
	for i, m := range e.Money.Seq {
		if i < e.throwSeq {
			continue
		}
		switch m.Type {
		case journal.TypeCollect:
			if e.rampoLost[m.Key] {
				// A failed rampo may be taken with the losers or at the rampo zone's turn: in
				// the 2014 text both come before the colours (F004 L682-L685).
				if !e.cfg.table.consolidated && top > 0 && due[m.Key] < 0 {
					p := e.Money.Seq[topAt]
					e.orderFinding(ev, m, p, fmt.Sprintf("%s's failed rampo on %s was collected after %s on %s had been paid; the losers and the rampo zone come before the colours",
						m.Key.Player, m.Key.Spot, p.Key.Player, p.Key.Spot))
					return
				}
				continue
			}
			if firstPay < 0 || !games.AsDue(due, m) {
				continue
			}
			p := e.Money.Seq[firstPay]
			e.orderFinding(ev, m, p, fmt.Sprintf("%s's losing stake on %s was collected after %s on %s had been paid; losing stakes are collected first",
				m.Key.Player, m.Key.Spot, p.Key.Player, p.Key.Spot))
			return
		case journal.TypePayout:
			if !games.AsDue(due, m) {
				continue
			}
			if firstPay < 0 {
				firstPay = i
			}
			class, rank := e.payClass(m.Key)
			if rank < 0 {
				continue
			}
			if !e.cfg.table.consolidated && rank > 1 {
				continue // the 2014 text orders only the rampo zone and the colours
			}
			if top >= 0 && rank < top {
				p := e.Money.Seq[topAt]
				prevClass, _ := e.payClass(p.Key)
				e.orderFinding(ev, m, p, fmt.Sprintf("%s on %s (%s) was paid after %s on %s (%s); the regulation pays %s first",
					m.Key.Player, m.Key.Spot, class, p.Key.Player, p.Key.Spot, prevClass, class))
				return
			}
			if rank > top {
				top, topAt = rank, i
			}
		}
	}
}

func (e *rampoEngine) orderFinding(ev *journal.Event, m, before games.MoneyEvent, detail string) {
	var ex games.Evidence
	ex.AddRef(before.Line, "")
	ex.AddRef(m.Line, "")
	e.Find(ev, e.rules.order, m.Key.Spot, m.Key.Player, games.Text("the regulation's order of payments"),
		games.Text(fmt.Sprintf("%s on %s after %s on %s", m.Key.Player, m.Key.Spot, before.Key.Player, before.Key.Spot)), detail, ex)
}
