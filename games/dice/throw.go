package dice

import (
	"fmt"
	"strings"

	"github.com/coupwatch/coupwatch/journal"
)

// turns follows who holds the dice, how each turn ends and how often each player breaks the
// throwing rules. Both games offer the dice clockwise, keep them with the shooter until his
// turn ends, and let the chef de table withdraw the turn of a player who breaks the throwing
// rules repeatedly (AM 88-384 art. 6.2, L339-L345; arrêté 2014 art. 55-22-1, F004 L636-L651).
type turns struct {
	shooter string
	// named is set when the open coup's journal names the shooter.
	named bool
	// threw is set once the shooter made a valid throw in his turn.
	threw bool
	// mustPass is set when the last valid throw ended the shooter's turn (endedIn: its coup).
	mustPass bool
	endedIn  string
	// overstay: the shooter threw on after his turn ended (reported): handing the dice on
	// later is the correction, not a breach.
	overstay bool
	// faults counts each player's irregular throws at the table; reported marks the players
	// whose repeated violations were reported (threshold: the rules option, 0 = never).
	faults    map[string]int
	reported  map[string]bool
	threshold int
}

// withdrawAfter is the number of irregular throws from which the chef de table may withdraw a
// player's turn («s'il viole de façon répétée les règles du lancer», AM 88-384 art. 6.2 L345,
// F004 L650-L651): the dice may then change hands without the turn having ended. Whether the
// violations are also reported is the rules option repeat_violations.
const withdrawAfter = 2

func newTurns(threshold int) turns {
	return turns{faults: map[string]int{}, reported: map[string]bool{}, threshold: threshold}
}

// startCoup forgets who was named in the previous coup.
func (t *turns) startCoup() { t.named = false }

// name records an "action shooter" event. It returns a description of the breach when the
// shooter keeps the dice after his turn ended, or, when the dice change hands before it ended:
// while a craps point is on (pointOn), or at any time when sevenOutOnly is set (craps: the
// dice change hands on the seven-out only, not after a come-out decision).
func (t *turns) name(player string, pointOn, sevenOutOnly bool) string {
	t.named = true
	if player == t.shooter {
		if t.mustPass {
			t.mustPass, t.overstay = false, true
			return fmt.Sprintf("%s throws again although his turn ended in coup %s: the dice pass to the next player", player, t.endedIn)
		}
		return ""
	}
	prev := t.shooter
	ended, threw, withdrawn := t.mustPass || t.overstay, t.threw, t.reported[prev] || t.faults[prev] >= withdrawAfter
	t.shooter, t.threw, t.mustPass, t.overstay = player, false, false, false
	if prev == "" || ended || !threw || withdrawn {
		// First shooter, turn over, a refusal, or a turn withdrawn by the chef de table.
		return ""
	}
	switch {
	case pointOn:
		return fmt.Sprintf("the dice passed from %s to %s while %s's point was on: they change hands only on a seven-out", prev, player, prev)
	case sevenOutOnly:
		return fmt.Sprintf("the dice passed from %s to %s on a come-out, although %s had not sevened out: they change hands only on the 7 that loses the pass line", prev, player, prev)
	}
	return ""
}

// valid records a valid throw; endsTurn says it ended the shooter's turn.
func (t *turns) valid(coup string, endsTurn bool) {
	if t.mustPass && !t.named {
		// The journal did not name the shooter after the turn ended: nothing to judge.
		t.mustPass = false
	}
	t.threw = true
	if endsTurn {
		t.mustPass, t.endedIn = true, coup
	}
}

// fault counts an irregular throw by the shooter; it reports whether the player has now
// reached the threshold of repeated violations (once per player).
func (t *turns) fault(player string) (count int, repeated bool) {
	if player == "" {
		return 0, false
	}
	t.faults[player]++
	count = t.faults[player]
	if t.threshold > 0 && count >= t.threshold && !t.reported[player] {
		t.reported[player] = true
		return count, true
	}
	return count, false
}

// faultWords renders the faults of a throw for people.
func faultWords(faults []string) string {
	words := make([]string, 0, len(faults))
	for _, f := range faults {
		words = append(words, faultWord(f))
	}
	return strings.Join(words, ", ")
}

func faultWord(f string) string {
	switch f {
	case "no_wall":
		return "no die hit the far wall"
	case "slid":
		return "the dice slid"
	case "not_lengthwise":
		return "not thrown the length of the table"
	case "stacked":
		return "dice stacked"
	case "cocked":
		return "a die cocked"
	case "on_chip":
		return "a die on the chips"
	case "in_tray":
		return "a die in the dice tray"
	case "in_rack":
		return "a die in the chip rack"
	case "off_table":
		return "a die off the table"
	case "held":
		return "the dice held"
	case "rubbed":
		return "the dice rubbed"
	case "broken":
		return "a broken die"
	case "mirror":
		return "thrown at the mirrors"
	}
	return f
}

// checkDice validates a dice event of a two-dice game: a clean throw shows two dice; a faulty
// one may show fewer (a die off the table), and one die seen with no fault named is a faulty
// throw too («no dice», the engines report it).
func checkDice(ev *journal.Event) error {
	switch {
	case len(ev.Values) > 2:
		return fmt.Errorf("dice event shows %d dice; the game is played with two", len(ev.Values))
	case len(ev.Values) == 0 && len(ev.Faults) == 0:
		return fmt.Errorf("dice event shows no die and no fault; a valid throw shows two dice")
	}
	return nil
}
