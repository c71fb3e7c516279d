"""House rules of a chouette table: every option that tells the five rule sets apart.

`RuleSet` holds one field per option; its defaults follow the Atlanta Chouette Rules (2007),
cited as "Atlanta X.Y". Each field's metadata says how `explain()` words its values (every
option in plain English for `/chouette rules`) and its range, and a rule set checks its own
values when made (`allowed()` says what an option takes). A preset sets the options where
its own document differs, and a table may override them when it is opened: rules/preset.py.
`docs/rules.md` maps each rule of each document to these options and to the module that
enforces it.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Mapping
from dataclasses import Field, dataclass, field, fields
from typing import Any, Literal, get_args, get_origin, get_type_hints

from rules.errors import BadOption

Approval = Literal["open", "box", "no_objection", "unanimous"]
PartnerPolicy = Literal["never", "optional", "required"]
PartnerFrom = Literal["bottom", "after_captain", "captain"]
PartnerCubes = Literal["shared", "own"]
OddPoint = Literal["box", "keep_halves", "next_roll"]
Automatic = Literal["none", "by_agreement", "box_option", "always"]
Consent = Literal["never", "by_consent", "allowed"]
Order = Literal["free", "rotation", "box_choice"]
DoubleOrder = Literal["free", "rotation", "after_opener", "box_choice"]
BoxDouble = Literal["free", "captain_first", "same_level"]
CorrectionConsent = Literal["none", "affected", "moderator"]
NewcomerOrder = Literal["rolls", "joined"]
BoxTake = Literal["free", "half", "half_captain_first", "same_level", "all_or_none"]
ThreeHanded = Literal["as_box_take_rule", "both_or_none", "both"]
Extras = Literal["none", "lone_taker", "highest_taker"]
Settlements = Literal["never", "after_initial", "always"]
PrematureRoll = Literal["stands", "void"]
Payoff = Literal["most_minus_first", "fewest_payments"]
Rotation = Literal["atlanta", "fibs", "villages", "danish", "euro"]
Retention = Literal["win", "win_no_loss", "win_profit", "beat_all"]
Consultation = Literal["none", "in_game", "cube_in_game", "cube_turned"]
Penalty = Literal["none", "ownership_or_wash", "frozen_cube"]
Proxy = Literal["captain", "follow_captain", "take"]
TimeoutAction = Literal["proxy", "take", "drop"]
ShooterAbsent = Literal["wait", "suspend"]
ResultAgreement = Literal["sides", "everyone"]


def _m(say: Mapping[Any, str], lo: int = 0, hi: int = 0) -> dict[str, Any]:
    """An option's metadata: how `explain` words each value ("*" formats any), its range."""
    return {"say": say, "lo": lo, "hi": hi}


_CONSENT = {"never": "never allowed", "by_consent": "allowed only if both players agree",
            "allowed": "always allowed"}
_ORDER = {"free": "in any order",
          "rotation": "in rotation order, Captain first",
          "box_choice": "in rotation order if the Box insists, otherwise in any order"}


@dataclass(frozen=True, slots=True)
class RuleSet:
    """Every house-rule option of a chouette table; the defaults are the Atlanta rules."""

    # -- seating ----------------------------------------------------------------------------
    # Fewest players for a chouette (Atlanta 5.10a three-handed; danish: three or more).
    min_players: int = field(default=3, metadata=_m(
        {"*": "At least {} players are needed to play."}, 3, 20))
    # Most players seated (Atlanta 6.5 leaves it to the house: 10 as FIBS; villages 1: five).
    max_players: int = field(default=10, metadata=_m(
        {"*": "At most {} players may sit at the table."}, 3, 20))
    # Dice each player rolls for the first seating, higher total first (Atlanta 1.3; danish 1).
    seat_roll_dice: int = field(default=2, metadata=_m(
        {1: "Seats are drawn by rolling one die each.",
         2: "Seats are drawn by rolling two dice each."}, 1, 2))
    # Who admits a newcomer (Atlanta 6.5: any player may object; fibs: all approve; villages 4).
    join_approval: Approval = field(default="no_objection", metadata=_m({
        "open": "Anyone may join between games.",
        "box": "A newcomer joins if the Box agrees.",
        "no_objection": "A newcomer joins unless a seated player objects.",
        "unanimous": "A newcomer joins only if every seated player approves."}))
    # How newcomers of the same game line up at the end (Atlanta 6.5: two dice each).
    newcomer_order: NewcomerOrder = field(default="rolls", metadata=_m({
        "rolls": "Players joining at the same game roll two dice for their order.",
        "joined": "Players joining at the same game line up in the order they joined."}))
    # Whether a player may decline or resign the Box (villages 15: yes; fibs: not permitted).
    may_pass_box: bool = field(default=True, metadata=_m({
        True: "A player may pass or resign the Box.",
        False: "A player may not pass the Box when their turn comes."}))
    # -- partner ----------------------------------------------------------------------------
    # Whether the Box plays with a Partner (Atlanta 1.2 optional; fibs required; villages never).
    partner: PartnerPolicy = field(default="optional", metadata=_m({
        "never": "The Box always plays alone.",
        "optional": "The Box may take a Partner when the table is big enough.",
        "required": "The Box must take a Partner when the table is big enough."}))
    # Players needed before a Partner is allowed or required (Atlanta 1.2: six or more).
    partner_min_players: int = field(default=6, metadata=_m(
        {"*": "A Partner needs at least {} players seated."}, 3, 20))
    # Who is asked to be Partner (Atlanta 1.3/6.5 bottom; fibs 3rd in line; euro the Captain).
    partner_from: PartnerFrom = field(default="bottom", metadata=_m({
        "bottom": "The player at the bottom of the rotation is asked first to be Partner.",
        "after_captain": "The player next after the Captain becomes Partner.",
        "captain": "The Captain moves to the Box's side as Partner."}))
    # Whether the invited player may refuse to be Partner (Atlanta 6.5 yes; fibs no).
    may_decline_partner: bool = field(default=True, metadata=_m({
        True: "An invited player may decline to be Partner.",
        False: "A player may not refuse to be Partner."}))
    # Whether the Partner is the Box's choice, made by invitation (Atlanta 1.2 "the Box may
    # take a Partner", 6.4/6.5 "can be invited"), or the player whose turn it is takes the
    # place (fibs §1 ¶3 "must take"; danish ¶19 "give the Box a partner"; euro ¶9).
    partner_invited: bool = field(default=True, metadata=_m({
        True: "The Box chooses the Partner: a player is Partner only once the Box invites them.",
        False: "The player whose turn it is takes the Partner's place."}))
    # Box and Partner share each Team cube (Atlanta 4.2) or each has their own (danish, euro).
    partner_cubes: PartnerCubes = field(default="shared", metadata=_m({
        "shared": "Box and Partner share the result of each Team cube.",
        "own": "Each Team player has a cube against the Box and another against the Partner."}))
    # Who takes an odd point the Box side wins or loses (Atlanta 4.2 Box; fibs by next roll).
    odd_point: OddPoint = field(default="box", metadata=_m({
        "box": "The Box takes the odd point Box and Partner win, and pays the odd point lost.",
        "keep_halves": "Box and Partner split their points exactly, halves kept.",
        "next_roll": "An odd half point goes to the shooter on an even next roll, else Partner."}))
    # -- stakes -----------------------------------------------------------------------------
    # Multiples of the basic stake a player may play for, with the Box's consent (Atlanta 2.2).
    stake_multiples: tuple[int, ...] = field(default=(1, 2, 4, 8), metadata=_m(
        {"*": "A player may play for {} times the basic stake, if the Box agrees."}))
    # -- automatic doubles ------------------------------------------------------------------
    # Ties on the opening roll (Atlanta 5.1 by agreement; villages 7 Box's option; euro always).
    automatic_doubles: Automatic = field(default="by_agreement", metadata=_m({
        "none": "There are no automatic doubles.",
        "by_agreement": "An opening tie doubles the cubes of the players who agree with the Box.",
        "box_option": "On an opening tie the Box may turn all centred cubes as one.",
        "always": "An opening tie doubles every cube automatically."}))
    # Most automatic doubles in one game, 0 for no limit (villages 7, euro: a single one).
    automatic_double_limit: int = field(default=0, metadata=_m(
        {0: "Automatic doubles have no limit.", 1: "At most one automatic double a game.",
         "*": "At most {} automatic doubles a game."}, 0, 6))
    # Box may carry an automatic double they could not use to their next game (danish variation).
    automatic_carry_over: bool = field(default=False, metadata=_m({
        True: "The Box may carry a second automatic double over to their next game.",
        False: "Automatic doubles are never carried over to the next game."}))
    # -- doubling ---------------------------------------------------------------------------
    # Doubled player may redouble at once, keeping the cube (Atlanta 5.3; fibs, euro: none).
    beavers: bool = field(default=True, metadata=_m(
        {True: "Beavers are allowed.", False: "There are no beavers."}))
    # Beavered player redoubles at once (Atlanta 5.4 consent of both; villages 9 allowed).
    raccoons: Consent = field(default="by_consent", metadata=_m(
        {k: f"Raccoons are {v}." for k, v in _CONSENT.items()}))
    # Any redouble after a raccoon (Atlanta 5.4 consent of both; villages 10 never).
    aardvarks: Consent = field(default="by_consent", metadata=_m(
        {k: f"Aardvarks and further redoubles are {v}." for k, v in _CONSENT.items()}))
    # Order of Team doubles (Atlanta 5.9 Box may insist on rotation; villages 11, euro order).
    team_double_order: DoubleOrder = field(default="box_choice", metadata=_m({
        **{k: f"Team players offer their doubles {v}." for k, v in _ORDER.items()},
        "after_opener": "Once a Team player has doubled, the others decide in rotation "
                        "order, Captain first."}))
    # Which initial cubes the Box may turn (Atlanta 5.6 Captain first; danish same level).
    box_double_rule: BoxDouble = field(default="captain_first", metadata=_m({
        "free": "The Box may double any cubes they like.",
        "captain_first": "Doubling only some initial cubes, the Box doubles the Captain first, "
                         "then from the top of the rotation; redoubles are free.",
        "same_level": "The Box doubles all cubes at the same value together or none of them."}))
    # What the Box must take when every cube is turned from the centre (Atlanta 5.10, 5.11).
    box_take_rule: BoxTake = field(default="half_captain_first", metadata=_m({
        "free": "The Box may take or drop any of the cubes offered.",
        "half": "When the whole Team doubles from the centre, the Box takes at least half the "
                "cubes or drops them all.",
        "half_captain_first": "When the whole Team doubles from the centre, the Box takes all, "
                              "drops all, or takes at least half: the Captain first, then from "
                              "the top of the rotation.",
        "same_level": "The Box takes or drops all cubes at the same value alike.",
        "all_or_none": "The Box takes or drops an initial double as a whole."}))
    # Three-handed, both initial cubes from the centre (Atlanta 5.10a both or none; euro both).
    three_handed_initial: ThreeHanded = field(default="both_or_none", metadata=_m({
        "as_box_take_rule": "Three-handed, the Box answers two initial cubes as in any game.",
        "both_or_none": "Three-handed, the Box takes both initial cubes or drops both.",
        "both": "Three-handed, the Box must take both initial cubes."}))
    # Order of Team answers when the Box doubles (Atlanta 5.8 Box may insist; danish, euro).
    team_answer_order: Order = field(default="box_choice", metadata=_m(
        {k: f"Team players answer the Box's doubles {v}." for k, v in _ORDER.items()}))
    # The lone taker of a Box double to all must beaver (villages 8).
    lone_taker_must_beaver: bool = field(default=False, metadata=_m({
        True: "A lone Team player taking the Box's double to all must beaver.",
        False: "A lone taker need not beaver."}))
    # Droppers pass their cube to a taker at half its value (Atlanta 5.7; danish sell cube).
    extras: Extras = field(default="lone_taker", metadata=_m({
        "none": "There are no extras.",
        "lone_taker": "When only one player takes the Box's double to all, the droppers may "
                      "give them extras, which they must accept.",
        "highest_taker": "A dropper may sell their cube to the highest ranked taker for half "
                         "its value."}))
    # Fewest players seated for extras (Atlanta 5.10a three-handed; fibs: four).
    extras_min_players: int = field(default=3, metadata=_m(
        {"*": "Extras need at least {} players seated."}, 3, 20))
    # One cube for the table, buy-outs at half the cube, slaves (fibs).
    single_cube: bool = field(default=False, metadata=_m({
        True: "One cube for the whole table; a player who disagrees sells their game for half.",
        False: "Every Team player has their own cube against the Box."}))
    # Gammons count only on a cube turned and taken (Atlanta 4.1, per cube).
    jacoby: bool = field(default=True, metadata=_m({
        True: "Jacoby: gammons and backgammons count only on a cube that has been turned and "
              "taken; on a cube still in the centre they count as a single game.",
        False: "Gammons always count."}))
    # Settlements between players (Atlanta 4.4/4.5; fibs: none on the initial cube).
    settlements: Settlements = field(default="always", metadata=_m({
        "never": "There are no settlements.",
        "after_initial": "Settlements are allowed, but not on the initial cube.",
        "always": "Players may settle; the Box may preempt a settlement within the Team."}))
    # A roll made while cubes are being turned (Atlanta 8.6 stands; danish void).
    premature_roll: PrematureRoll = field(default="stands", metadata=_m({
        "stands": "A roll made during cube action stands.",
        "void": "A roll made while cubes are being turned is void."}))
    # A double turned by mistake may be taken back before it is answered (fibs).
    withdraw_double: bool = field(default=False, metadata=_m({
        True: "A double turned by mistake may be withdrawn before it is answered.",
        False: "A double once turned stands."}))
    # -- scoring ----------------------------------------------------------------------------
    # Scores in whole points, fractions rolled off (Atlanta 4.2, 4.3); else halves kept.
    whole_points: bool = field(default=True, metadata=_m({
        True: "The sheet keeps whole points; a fraction is rolled off with two dice.",
        False: "The sheet keeps half points."}))
    # Who pays whom at the end (Atlanta 10.2 most minus first; fibs fewest payments).
    payoff: Payoff = field(default="most_minus_first", metadata=_m({
        "most_minus_first": "At the end the most minus player pays first.",
        "fewest_payments": "At the end the payments are arranged with as few as possible."}))
    # -- rotation ---------------------------------------------------------------------------
    # The function of rules/rotation.py that seats the next game (Atlanta 6.1-6.5).
    rotation: Rotation = field(default="atlanta", metadata=_m(
        {"*": "Players rotate by the {} rules."}))
    # What keeps the Box in the box (Atlanta 6.1 profit; villages 15 no loss; danish beat all).
    box_retention: Retention = field(default="win_profit", metadata=_m({
        "win": "The Box keeps the box by beating the Captain.",
        "win_no_loss": "The Box keeps the box by beating the Captain without a net loss.",
        "win_profit": "The Box keeps the box by beating the Captain with a net profit.",
        "beat_all": "The Box keeps the box until they lose to any player."}))
    # Consultation penalties count in the Box's profit for 6.1 (euro: they do not).
    profit_counts_penalties: bool = field(default=True, metadata=_m({
        True: "Penalties count towards the Box's profit.",
        False: "Penalties do not count towards the Box's profit."}))
    # A player who cannot reconnect before the next game loses their place (fibs).
    disconnected_loses_place: bool = field(default=False, metadata=_m({
        True: "A player still away at the next game loses their place and rejoins as new.",
        False: "An absent player keeps their place in the rotation."}))
    # -- consultation -----------------------------------------------------------------------
    # Who may talk in the team channel (Atlanta 3.2 cube in the game; danish all; fibs).
    team_consultation: Consultation = field(default="cube_in_game", metadata=_m({
        "none": "The Team may not consult.",
        "in_game": "Team players still in the game may consult on checker play.",
        "cube_in_game": "Only Team players with a cube in the game may advise the Captain.",
        "cube_turned": "The Team may consult on checker play once the cube is turned."}))
    # Cubes turned before Box and Partner consult fully, 0 at once (Atlanta 3.3: two).
    box_consult_after_cubes: int = field(default=2, metadata=_m(
        {0: "Box and Partner consult freely.",
         1: "Box and Partner consult fully once one cube is turned.",
         "*": "Box and Partner consult fully once {} cubes are turned."}, 0, 20))
    # Box and Partner may always talk about cube decisions (Atlanta 3.4).
    box_cube_consult: bool = field(default=True, metadata=_m({
        True: "Box and Partner may always talk about cube decisions.",
        False: "Box and Partner may not talk about cube decisions."}))
    # Penalty for consulting without the right (Atlanta 3.6; euro frozen cube).
    consultation_penalty: Penalty = field(default="ownership_or_wash", metadata=_m({
        "none": "Consulting out of turn has no set penalty.",
        "ownership_or_wash": "Consulting out of turn costs the offender's cube (the Box takes "
                             "it or washes it) or half its starting value.",
        "frozen_cube": "Consulting out of turn freezes the offender's cube (takes only), or "
                       "costs the original stake."}))
    # -- absence and timeouts ---------------------------------------------------------------
    # Who acts for an absent Team player (Atlanta 7.1 the Captain; fibs copies; villages 13).
    default_proxy: Proxy = field(default="captain", metadata=_m({
        "captain": "The Captain acts for an absent player who named no proxy.",
        "follow_captain": "An absent player does what the Captain does.",
        "take": "An absent player's cube is deemed to take and cannot be offered."}))
    # Seconds the Team has to double or hold before the roll goes ahead (design).
    double_window_seconds: int = field(default=5, metadata=_m(
        {"*": "The dice roll {} s after the turn starts unless someone doubles or holds."},
        0, 120))
    # Seconds a hold lasts before the roll goes ahead (Atlanta 5.9 "hold your roll").
    hold_timeout_seconds: int = field(default=120, metadata=_m(
        {"*": "A hold lasts at most {} s."}, 10, 3600))
    # Seconds to answer a cube decision (fibs: lagged over a minute).
    decision_timeout_seconds: int = field(default=120, metadata=_m(
        {"*": "A cube decision times out after {} s."}, 10, 3600))
    # On a decision timeout: the player counts as absent (fibs), or a fixed answer.
    timeout_action: TimeoutAction = field(default="proxy", metadata=_m({
        "proxy": "On a timeout the player is treated as absent.",
        "take": "On a timeout the player takes.",
        "drop": "On a timeout the player drops."}))
    # Seconds the table waits for the Box or Captain to act (fibs: a couple of minutes).
    shooter_timeout_seconds: int = field(default=600, metadata=_m(
        {"*": "The Box or Captain has {} s to act."}, 30, 86400))
    # Then: the game waits (Atlanta silent) or is suspended and the rotation goes on (fibs).
    shooter_absent: ShooterAbsent = field(default="wait", metadata=_m({
        "wait": "If the Box or Captain is away the game waits for them.",
        "suspend": "If the Box or Captain stays away the game is suspended and their opponent "
                   "counts as the winner for the rotation."}))
    # Who must agree to a moderator's correction (Atlanta 2.3/11.1 the players concerned;
    # fibs §7: the second scorekeeper confirms).
    correction_consent: CorrectionConsent = field(default="affected", metadata=_m({
        "none": "A moderator's correction applies at once.",
        "affected": "A moderator's correction applies once the players it concerns agree.",
        "moderator": "A moderator's correction applies once a second moderator confirms it."}))
    # Who must agree on a result a player enters (Atlanta silent: the Box side and the
    # Captain; fibs §4 "everybody has agreed on the result"); a moderator's stands alone.
    result_agreement: ResultAgreement = field(default="sides", metadata=_m({
        "sides": "A result one side gives (the Box or the Partner, or the Captain) ends the "
                 "game when the other side confirms it, or a moderator enters it.",
        "everyone": "A result ends the game when every player with a cube still in it "
                    "agrees, or a moderator enters it."}))
    # Whether a checker play may be taken back (Atlanta 8.1-8.4 corrected; fibs §4 not).
    undo_plays: bool = field(default=True, metadata=_m({
        True: "A moderator may take back the last checker play (and what followed it).",
        False: "A checker play stands once made: there is no taking back."}))

    def __post_init__(self) -> None:
        for f in fields(self):
            _check(f, getattr(self, f.name))
        if self.min_players > self.max_players:
            raise BadOption(code="min_max_players", least=self.min_players, most=self.max_players)
        stakes = self.stake_multiples
        if not stakes or stakes[0] != 1 or any(b != 2 * a for a, b in itertools.pairwise(stakes)):
            raise BadOption(code="stake_steps")
        if not self.beavers and self.raccoons != "never":
            raise BadOption(code="raccoons_need_beavers")
        if self.raccoons == "never" and self.aardvarks != "never":
            raise BadOption(code="aardvarks_need_raccoons")
        if self.rotation == "danish" and self.box_retention != "beat_all":
            raise BadOption(code="danish_retention")
        if self.whole_points and self.odd_point != "box":
            raise BadOption(code="whole_points_odd")
        if self.rotation == "villages" and self.partner != "never":
            raise BadOption(code="villages_partner")


@functools.cache
def _hints() -> dict[str, Any]:
    return get_type_hints(RuleSet)


def _show(value: object) -> str:
    """A value as it is written in TOML."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, tuple):
        return "[" + ", ".join(_show(v) for v in value) + "]"
    return repr(value)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def allowed(name: str) -> str:
    """What values option `name` accepts, in words (for error messages and help)."""
    f = _FIELDS[name]
    hint = _hints()[name]
    if get_origin(hint) is Literal:
        return "one of " + ", ".join(_show(a) for a in get_args(hint))
    if hint is bool:
        return "true or false"
    if hint is int:
        return f"a whole number from {f.metadata['lo']} to {f.metadata['hi']}"
    return "a list of whole numbers, such as [1, 2, 4]"


def _check(f: Field[Any], value: object) -> None:
    hint = _hints()[f.name]
    if get_origin(hint) is Literal:
        ok = isinstance(value, str) and value in get_args(hint)
    elif hint is bool:
        ok = isinstance(value, bool)
    elif hint is int:
        ok = (isinstance(value, int) and not isinstance(value, bool)
              and f.metadata["lo"] <= value <= f.metadata["hi"])
    else:
        ok = isinstance(value, tuple) and all(_is_int(v) for v in value)
    if not ok:
        raise BadOption(code="option_value", option=f.name, allowed=allowed(f.name),
                        value=_show(value))


_FIELDS: dict[str, Field[Any]] = {f.name: f for f in fields(RuleSet)}


def explain(ruleset: RuleSet, words: Callable[[str], str] = str) -> list[str]:
    """One plain line per option, in field order, for `/chouette rules`; each template in
    `words`' language (the bot's catalogue: `templates` lists them all)."""
    lines = []
    for f in fields(ruleset):
        value = getattr(ruleset, f.name)
        say: Mapping[Any, str] = f.metadata["say"]
        if not isinstance(value, tuple) and value in say:
            lines.append(words(say[value]))
        else:
            shown = ", ".join(map(str, value)) if isinstance(value, tuple) else value
            lines.append(words(say["*"]).format(shown))
    return lines


def templates() -> dict[str, str]:
    """Every line `explain` may write, with the option it is about: for the catalogue."""
    return {text: f.name for f in fields(RuleSet) for text in f.metadata["say"].values()}
