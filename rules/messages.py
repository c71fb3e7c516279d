"""The words of the rules' refusals: one catalogue, a code for each, whole sentences with
named fields, so a later issue can translate it (gettext) without touching a rule.

A refusal (`rules.errors.RuleError`) carries its code and parameters; the text is written
where the message is shown, with each player (`Player`, `Players`, `Ties`) named then;
words inside a message that name players themselves (a cube, a seating's reason) are a
`Phrase` (see docs/decisions.md, "Refusals as data").
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

Words = Callable[[str], str]  # an English template -> the same in the reader's language


class Player(str):
    """A parameter that is a player's key (on Discord a user id), named when written."""


class Players(tuple[str, ...]):
    """Several players' keys, written as a list of their names."""


class Phrase:
    """Words inside a message, or news, that name players themselves (a cube: "your cube
    against Bo"; a seating's reason): a code of the catalogue and its parameters."""

    def __init__(self, code: str, **params: object) -> None:
        self.code, self.params = code, params

    def text(self, name: Callable[[str], str] = str, words: Words = str) -> str:
        """The phrase in words, each player named `name(key)`."""
        return text(self.code, self.params, name, words)

    def __str__(self) -> str:
        return self.text()

    def __repr__(self) -> str:
        return f"Phrase({self.code!r}, **{self.params!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Phrase) and (self.code, self.params) == (other.code,
                                                                           other.params)

    def __hash__(self) -> int:
        return hash((self.code, tuple(sorted(self.params.items()))))


class Phrases(tuple[Phrase, ...]):
    """Several phrases, written one after the other: "a (ann); b (bo)"."""


class Ties(tuple[Players, ...]):
    """Groups of players tied on their rolls, written "Ann and Bo; Cy and Di"."""


MESSAGES: dict[str, str] = {
    # rules/review.py
    "analysis_in_play": "Game {game} is still being played: its analysis is shown once it is "
                        "over, never during play ({over}; leave out the game for the "
                        "session's games over so far).",
    "analysis_no_game": "There is no game {game} at this table yet ({over}).",
    "none_over": "no game is over yet",
    "one_over": "game 1 is over",
    "games_over": "{count} games are over",
    # rules/absence.py, rules/proxies.py
    "not_at_table": "{player} is not at this table.",
    "not_at_table_join": "{player} is not at this table: to play, `/chouette join` first.",
    "not_at_table_quoted": "{player!r} is not at this table.",
    "already_away": "{player} is already away.",
    "already_back": "{player} is already back.",
    "proxy_not_a_player": "A proxy is another player at this table, not {proxy}.",
    "proxy_other_side": "{proxy} plays on the other side: name a proxy from your own side, "
                        "or a player out of this game.",
    "proxy_circle": "{proxy} already acts for you through their own proxies: choose "
                    "someone else.",
    "disconnect_moderators": "Only moderators (Manage Server, or the server's moderator "
                             "role) report a disconnection.",
    "already_disconnected": "{player} is disconnected already: `back` brings them back.",
    "no_decision_waiting": "No decision of {player}'s is waiting.",
    "not_his_proxy": "{by} may not act for {player}: {player}'s proxy is {proxy}.",
    "not_his_proxy_nobody": "{by} may not act for {player}: {player} has no proxy.",
    "absent_cube_unnamed": "{absent} is away with nobody named to control their cube: the Box "
                           "doubles {absent} only by doubling the entire Team ({live}), the "
                           "take then deemed ({rule}); or double the others without them.",
    # rules/holdover.py
    "away_already_stand_in": "{player} is away already: their stand-in rolls and plays for them.",
    "hold_over_waits": "Under these rules the game waits for the Box or the Captain; once "
                       "their time is up a stand-in rolls and plays for them.",
    "held_over_once": "This game was held over once already: play it out now.",
    "hold_over_nobody_gone": "A game is held over only when the Box or the Captain is "
                             "disconnected ({shooters}).",
    "resume_players_only": "A player at the table plays out a held-over game.",
    "resume_between_games": "A held-over game is played out between games: finish this one "
                            "first.",
    "none_on_hold": "No game is on hold.",
    "not_on_hold": "Game {game} is not on hold; on hold: {on_hold}.",
    "resume_waits_for": "Game {game} is played out when its players are back: waiting for "
                        "{missing}.",
    # rules/extras.py
    "no_extras": "Extras aren't given at this table ({rule}).",
    "no_extras_under": "Extras aren't given at this table under {players} players ({rule}).",
    "extras_when": "Extras are given after the Box's double, before the Box rolls.",
    "extras_givers": "Only a player who dropped the Box's double gives an extra.",
    "extras_lone_taker": "Extras go to a lone taker of a double of every cube ({rule}).",
    "extras_no_taker": "Nobody took the Box's double: there is no one to give an extra to.",
    "extra_goes_to": "The extra goes to {taker}.",
    "extra_given": "You already gave {taker} an extra.",
    "retract_lone_taker": "Only a lone taker with extras offered to them may drop the Box's "
                          "double after all ({rule}).",
    # rules/results.py
    "result_form": "result needs winner box or team, and kind single, gammon or backgammon.",
    "result_givers": "Only the Box side (the Box or the Box's Partner) and the Captain give the "
                     "result of a game, one proposing and the other confirming it (or a "
                     "moderator); a game on the board ends there, or by a resignation.",
    "result_given_by_box": "{by} gave this result already: it stands when the Captain "
                           "confirms it, or a moderator enters it.",
    "result_given_by_team": "{by} gave this result already: it stands when the Box side (the "
                            "Box or the Box's Partner) confirms it, or a moderator enters it.",
    "result_by_everyone": "The players with a cube still in the game ({need}) agree on the "
                          "result, or a moderator enters it ({rule}).",
    "result_agreed": "You agreed to this result already: it waits for {waiting} ({rule}).",
    # rules/corrections.py
    "correct_moderators": "Only a moderator corrects the table: ask one (they have the "
                          "moderator role), and say what went wrong.",
    "correction_kind": "A correction is a score (points from one player to another) or an "
                       "undo (take back the last checker play), not {kind!r}.",
    "correction_reason": "Give the reason for the correction: it is shown in the history.",
    "correction_strangers": "{strangers} never sat at this table: a score correction is "
                            "between two of its players.",
    "correction_same_player": "A score correction moves points between two different "
                              "players.",
    "correction_points": "points is a number (halves allowed), not {points!r}.",
    "correction_positive": "points are what `from` pays `to`: more than 0 (swap the two "
                           "players to move points the other way).",
    "correction_whole": "This sheet keeps whole points ({rule}): correct it by whole points "
                        "(a fraction is rolled off first).",
    "undo_not_here": "Under these rules a checker play stands once made ({rule}); a score "
                     "correction is still possible.",
    "undo_no_game": "There is no game on the board to take a play back in; correct the "
                    "score instead.",
    "undo_nothing": "No checker play to take back since the game began (or since the last "
                    "undo).",
    "no_such_correction": "No correction {number} is waiting for consent.",
    "no_such_correction_waiting": "No correction {number} is waiting for consent (waiting: "
                                  "{waiting}).",
    "second_moderator": "A second moderator confirms a correction, not the one who proposed "
                        "it.",
    "correction_waits": "Correction {number} waits for {waiting}.",
    "correction_agreed": "Correction {number} waits for {waiting}; you already agreed.",
    # rules/roles.py
    "no_partner": "This rule set has no Partner for the Box.",
    "between_games": "That is done between games: finish this one first.",
    "seat_first": "Draw the seats first: Start game on the board, or `/chouette start`.",
    # rules/table.py
    "no_table": "No table is open here yet: open one first.",
    "session_ended": "This session has ended: open a new table to play on.",
    "table_open": "A table is already open here ({preset}, {mode}).",
    "mode_play": "play mode",
    "mode_scorekeeper": "scorekeeper mode",
    "mode": "The mode is play (the bot runs the board) or scorekeeper (results are entered), "
            "not {mode!r}.",
    "language_form": "A table's language is a code like da or pt_BR, not {language!r}.",
    "basic_stake": "The basic stake is a short note, like \"$5 a point\" (40 characters at "
                   "most).",
    "already_at_table": "{player} is already at this table.",
    "blinded_joins": "{player} is blinded at this table: a moderator unblinds them first.",
    "stake_not_played": "A stake of {stake} isn't played here: choose one of {stakes}.",
    "table_full": "This table is full ({players} players).",
    "asked_already": "{player} has asked to join already: the table is deciding.",
    "not_asked": "{player} has not asked to join.",
    "admit_players_only": "Only the players at the table admit a newcomer or object.",
    "box_admits": "The Box ({box}) decides who joins ({rule}).",
    "admitted_already": "You have admitted {player} already.",
    "leaves_already": "{player} leaves at the end of this game already.",
    "seats_drawn": "Seats are drawn when the table has none; after that the rotation "
                   "decides.",
    "seat_order": "seat needs the order [Box, Captain, rest of the Team].",
    "table_takes_at_most": "This table takes at most {players}.",
    "seat_for_everyone": "Everyone at the table needs a seat: {missing} missing.",
    "seat_rolls": "Seat rolls are {{player: [dice]}}, like {{\"ann\": [6, 2]}}.",
    "seat_roll_dice": "Each player rolls {count} dice for seats, 1 to 6 each: {player} has "
                      "{dice!r}.",
    "decline_invitees": "Only a player the Box may invite as Partner can decline.",
    "decline_refused": "Under these rules a player may not refuse to be Partner when their "
                       "turn comes.",
    "box_invites": "The Box ({box}) invites a Partner, or a player takes the offer themselves.",
    "partner_box_invites": "Only the Box ({box}) invites a Partner ({rule}).",
    "partner_not_invited": "The Box ({box}) chooses the Partner ({rule}) and has not "
                           "invited you: ask {box} to invite you.",
    "declined_partner": "{player} declined: only {player} can take it back, by accepting.",
    "partner_asked_first": "{first} is asked first to be Partner ({order}); {player} only "
                           "once those before them decline.",
    "box_passes": "Only the Box ({box}) can pass the box.",
    "stake_box_agrees": "A stake changes when the Box ({box}) agrees ({rule}): the Box "
                        "sends it for you.",
    "end_in_game": "A game is in progress: finish it (or enter its result) before ending the "
                   "session; a moderator may end it now.",
    "box_stake": "The Box plays each cube at its Team player's stake: the Box's own "
                 "changes when the Box plays on the Team.",
    # rules/settlement.py
    "no_settlements": "There are no settlements at this table.",
    "no_cube_between": "You and {other} have no cube in play between you.",
    "settle_after_answer": "Answer the cube first; settle after.",
    "no_initial_settlement": "No settlements on the initial cube ({rule}).",
    "partners_settled": "The Box and the Partner have settled this game already.",
    "settle_points": "settle needs points: a number, halves allowed (1.5 or \"3/2\").",
    "settle_not_points": "settle: {points!r} is not a number of points.",
    "no_sales": "Games are not sold at this table.",
    "sale_agreed_by": "A sale is {seller}'s and {buyer}'s to agree.",
    "nothing_to_sell": "You have no game in play to sell.",
    "nothing_to_sell_his": "{seller} has no game in play to sell.",
    "buyer_one_cube": "{buyer} can't buy {seller}'s game: the Box or a Team player can.",
    "buyer": "{buyer} can't buy {seller}'s game: the Box or a Team player or a spectator "
             "can.",
    "answer_before_sale": "Answer the Box's double first.",
    "answer_before_sale_his": "{seller} must answer the Box's double first.",
    "no_sale_offered": "{seller} offers you no game now: ask {seller} to offer it again "
                       "(/chouette sell).",
    "penalties": "This rule set's penalties for consulting out of turn are {penalties}.",
    "penalties_not_set": "This rule set's penalties for consulting out of turn are not set.",
    "captain_claims": "The Captain ({captain}) claims this penalty from the Partner ({rule}).",
    "consult_fully": "Two cubes are turned: Box and Partner may consult fully now.",
    "half_cube_claim": "Half a starting cube, or another cube, is claimed by the Box or the "
                       "Captain from a player already out of the game ({rule}).",
    "not_in_game": "{player} is not a player of this game.",
    "penalty_cube_held": "{player} is already liable for a penalty cube.",
    "box_chooses_penalty": "The Box ({box}) chooses the penalty ({rule}).",
    "no_cube_half": "{player} has no cube in play to penalise: half a starting cube is the "
                    "penalty instead.",
    "no_cube_stake": "{player} has no cube in play to penalise: the original stake is the "
                     "penalty instead.",
    "resign_kind": "A resignation is single, gammon or backgammon.",
    "resign_live": "Resign on cubes still in play: {players}.",
    "no_resignation": "No resignation waits for your answer.",
    # rules/doubling.py
    "box_side_turns": "{decider} turns the cubes for the Box side (the Box is {box}).",
    "box_on_roll": "Only the side on roll doubles, before it rolls: the Box is on roll.",
    "team_on_roll": "Only the side on roll doubles, before it rolls: the Team is on roll.",
    "double_before_roll": "The dice are rolled: double before your side's next roll.",
    "no_cube_in_game": "{player} has no cube in this game.",
    "double_own_cube": "You double your own cube only: leave out {others} (only the Box names "
                       "the cubes to double; each Team player turns their own).",
    "box_answered": "The Box has answered this turn's doubles: double before the Captain's "
                    "next roll.",
    "rotation_passed": "The Team decides its doubles in rotation order: {by} comes before "
                       "{doubler}, who has doubled, and their turn has passed. Still to decide: "
                       "{still}.",
    "rotation_passed_all": "The Team decides its doubles in rotation order: {by} comes "
                           "before {doubler}, who has doubled, and their turn has passed. Still "
                           "to decide: nobody.",
    "no_cube_against_you": "{player} has no cube against you: the Team is {team}.",
    "cannot_double_his": "You can't double {player}'s cube now.",
    "no_cube_to_double": "You have no cube you may double: every cube is owned by the Team "
                         "or out of the game.",
    "captain_first": "Initial doubles go to the Captain first, then down the rotation: "
                     "double {players} ({rule}).",
    "double_same_level": "Double every cube at the same level together: {players} (cubes at "
                         "{face}).",
    "box_orders_answers": "The Box chooses the order of the answers only where the rule set "
                          "allows it ({rule}).",
    "answered_twice": "{player} is answered twice.",
    "box_answers_only": "Only {decider} answers the Team's doubles.",
    "no_team_double": "No Team double is waiting for your answer.",
    "no_double_waiting": "{strays} has no double waiting; the doubles waiting are {offered}.",
    "answer_together": "Answer the doubles together: {offered} ({missing} unanswered).",
    "partner_half": "Your Partner answered {answer} for their half: take all the doubles or "
                    "drop them all ({rule}).",
    "three_take_both": "Three-handed, the Box must take both initial cubes ({rule}).",
    "three_both_or_none": "Three-handed, the Box takes both initial cubes or drops both "
                          "({rule}).",
    "take_same_level": "Take or drop every cube at the same level together: {players} "
                       "({rule}).",
    "all_or_none": "Accept or refuse the initial doubles as a whole ({rule}).",
    "take_half": "When every cube is turned from the centre, accept at least half ({least} "
                 "of {count}) or drop them all ({rule}).",
    "take_captain_first": "Accept the Captain first, then from the top of the rotation: take "
                          "{players} ({rule}).",
    "question_moved_on": "That question was about the cube at {asked}; it is at {face} now, "
                         "{state}: answer the question about it.",
    "own_cube_first": "Answer your own cube first (rotation order).",
    "decides_first": "Wait: {player} decides first (rotation order).",
    "lone_taker_beavers": "You are the only one taking the Box's double: at this table a lone "
                          "taker must beaver ({rule}), or drop.",
    "nothing_waits": "Nothing waits for your answer.",
    "nothing_of_waits": "Nothing of {strays} waits for your answer; waiting: {waiting}.",
    "nothing_of_waits_none": "Nothing of {strays} waits for your answer.",
    # rules/consents.py
    "turn_kind": "{turn!r} is not a raccoon or an aardvark.",
    "turn_needs_no_consent": "That turn needs no consent at this table: make it yourself.",
    "raccoon_needs_consent": "A raccoon needs the consent of the cube's other player at this "
                             "table: the Raccoon button asks them, and the raccoon is made "
                             "when they agree.",
    "aardvark_needs_consent": "An aardvark needs the consent of the cube's other player at this "
                              "table: the Aardvark button asks them, and the aardvark is made "
                              "when they agree.",
    "no_raccoon_asked": "{player} is not asking you to agree to a raccoon now: the cube has "
                        "moved on, or the question was for someone else.",
    "no_aardvark_asked": "{player} is not asking you to agree to an aardvark now: the cube "
                         "has moved on, or the question was for someone else.",
    "raccoon_answers": "A raccoon answers a beaver or a raccoon; take, beaver or drop a "
                       "double.",
    "aardvark_answers": "An aardvark answers a beaver or a raccoon; take, beaver or drop a "
                        "double.",
    "beavers_apart": "Answer the Team's new doubles apart from the beavered cubes.",
    "double_stands": "A double once turned stands at this table.",
    "nothing_to_withdraw": "You have no double waiting for an answer to take back.",
    # rules/authority.py
    "runs_table": "Only the players at this table or a moderator may {doing}; to play, "
                  "`/chouette join` first.",
    "runs_table_host": "Only the players at this table, its host ({host}) or a moderator "
                       "may {doing}; to play, `/chouette join` first.",
    "blind_moderators": "Only a moderator blinds or unblinds a kibitzer.",
    "blind_a_player": "{player} plays at this table: moderators blind kibitzers only. A "
                      "player who consults out of turn answers to the rule set's penalties "
                      "(`/chouette penalty`).",
    "already_blinded": "{player} is already blinded here.",
    "not_blinded": "{player} is not blinded here.",
    # rules/game.py
    "game_over": "No game is in progress: game {game} is over, with no cube left in play. "
                 "Start the next one first.",
    "no_game": "No game is in progress: start one first.",
    "decisions_first": "Before {doing}, the cube decisions must be made: waiting for {who}.",
    "resignations_first": "Before {doing}, the resignations on {who}'s cubes must be accepted "
                          "or rejected.",
    "two_dice": "{what} is two dice from 1 to 6, like [3, 1]: got {value}.",
    "scorekeeper_only": "This table keeps score only: enter the game's result instead.",
    "box_shoots": "{player} rolls and plays for the Box now.",
    "team_shoots": "{player} rolls and plays for the Team now.",
    "play_them": "The dice are rolled ({dice}): play them.",
    "roll_held": "{players} asked to hold the roll ({rule}): wait until they double or "
                 "release it.",
    "stale_dice": "Those dice were drawn for an earlier roll: roll again.",
    "roll_first": "Roll first.",
    "not_holding": "You are not holding the roll.",
    "holders": "Only a Team player who may double their cube holds the roll.",
    "hold_when": "Hold the roll before the Captain rolls, on the Team's turn.",
    "hold_answered": "The Box has answered this turn's doubles: nobody doubles again before "
                     "the Captain's roll, so there is no roll to hold.",
    "holding_already": "You are holding the roll already: double or release it.",
    # rules/start.py
    "too_few_seated": "A chouette needs at least {least} players; {seated} are seated.",
    "opening_form": "opening lists the opening rolls as [Box die, Team die] pairs: ties "
                    "first, the last pair unequal.",
    "ties_form": "ties counts the opening ties: 0 or more.",
    "commitment_form": "commitment is the SHA-256 of the dice seed: 64 hexadecimal digits.",
    "no_commitment": "Game {game} has no dice commitment to reveal.",
    "seed_revealed": "Game {game}'s dice seed is already revealed.",
    "seed_secret": "Game {game} is still being played (or on hold): its seed stays secret "
                   "until it ends.",
    "seed_form": "seed is written in hexadecimal digits.",
    "seed_mismatch": "That seed does not hash to game {game}'s commitment {commitment}.",
    "newcomer_rolls_form": "newcomer_rolls maps each newcomer to their two dice, like "
                           "{{\"ann\": [6, 2]}}.",
    "newcomer_rolls_each": "newcomer_rolls holds one roll for each newcomer: {players}.",
    "newcomers_tied": "Tied rolls: {tied} roll again (newcomer_rerolls).",
    "automatic_strangers": "Automatic doubles are agreed with Team players only, not "
                           "{players}.",
    # rules/table.py (seats)
    "seats_tied": "Tied rolls: {tied} roll again.",
    # rules/cube.py: a cube in words, to one side or to a third party
    "cube_extra_from": "your extra from {box}",
    "cube_bought": "the game you bought from {seller} (against {box})",
    "cube_yours": "your cube against {box}",
    "cube_extra_given": "the extra you gave {team}",
    "cube_with": "your cube with {team}",
    "cube_with_bought": "your cube with {team} (bought from {seller})",
    "cube_extra": "{box}'s extra to {team}",
    "cube_of": "{team}'s cube against {box}",
    "cube_of_bought": "{team}'s cube against {box} (bought from {seller})",
    "cube_is": "{cube} is {state}",
    "cube_centred": "{cube} is at {face}, centred",
    "cube_held_by_you": "{cube} is at {face}, held by you",
    "cube_held": "{cube} is at {face}, held by {owner}",
    "you_answer_first": "you have to answer {turn} to {face} on {cube} first",
    "has_to_answer": "{player} has to answer {turn} to {face}",
    "no_part": "{player} has no part in {cube}",
    "cannot_now": "You can't {action} now: {waiting}",
    "owns_your_cube": "You can't double: {holder} owns your cube at {face}",
    "owns_cube_named": "You can't double: {holder} owns {cube} at {face}",
    "owns_the_cube": "You can't double {holder}: {holder} owns the cube at {face}",
    "owns_cube_bought": "You can't double {holder}: {holder} owns the cube bought from "
                        "{seller} at {face}",
    "no_beavers": "Beavers aren't allowed at this table",
    "no_raccoons": "Raccoons aren't allowed at this table",
    "no_aardvarks": "Aardvarks aren't allowed at this table",
    "withdraw_unanswered": "Only a double not yet answered can be taken back.",
    "retract_just_taken": "Only a double just taken can be dropped after all; {cube} is "
                          "{state}",
    "automatic_centred": "An automatic double turns only a centred cube; {cube} is {state}",
    "not_scored_yet": "The game can't be scored yet: {waiting}",
    "no_sale_now": "You can't sell your game now: {waiting}",
    "opponent_settles": "{buyer} can't buy {seller}'s game on {cube}; the opponent settles "
                        "instead",
    "opponent_settles_nobody": "Name a buyer for {seller}'s game on {cube}; the opponent "
                               "can't buy it, but settles instead",
    "award_centred": "Only a centred cube can be given away; {cube} is {state}",
    "cube_out": "You can't {action}: {cube} is {state} and out of this game",
    "no_double_to": "There is no double to {action} on {cube}",
    "cube_frozen": "You can't {action}: {cube} is frozen for this game, and you may only take",
    "negative_amount": "{what} can't be negative ({amount}); name the other payer",
    # rules/answers.py
    "no_cube_waiting": "No cube of {players} waits for your answer; waiting: {waiting}.",
    "no_cube_waiting_nobody": "You named no cube; waiting for your answer: {waiting}.",
    "nothing_waits_status": "Nothing waits for your answer: {status}.",
    "several_wait": "Several cubes wait for your answer: {waiting}; name one (cubes).",
    "cube_label": "{cube} ({label})",
    # rules/one_cube.py
    "one_cube_captain": "With one cube, the Captain ({captain}) decides the initial double.",
    "half_together": "Take or drop every double waiting together: {players}.",
    "half_answered": "You answered these doubles already ({answer}).",
    # rules/rolloff.py
    "rolloff_form": "This sheet keeps whole points: the fraction is rolled off ({rule}), here "
                    "of {points}; rolloff lists the throws as [[your two dice], [their two "
                    "dice]], ties first; or agree on whole points.",
    "next_roll": "This pays a half point that the Box and the Partner share: the odd half is "
                 "determined by the next roll ({rule}), so the command carries it, next_roll: "
                 "two dice from 1 to 6 like [3, 1] (even: the shooter's half, odd: the "
                 "Partner's); on Discord the bot rolls it.",
    # rules/seating.py
    "sits_twice": "{players} cannot sit twice: one seat per player.",
    "needs_captain": "A game needs a Captain: seat one Team player besides the Box.",
    "partner_place": "A Partner's place is 1 to {most} (behind the Captain), not {place} for "
                     "Partner {partner}.",
    "newcomers_team": "Only Team players can be newcomers to the rotation.",
    "roll_not_dice": "{player}'s roll {dice} is not dice: numbers 1 to 6.",
    "reroll_too": "{players} must re-roll too: tied with {tied}.",
    "not_tied": "Only tied players re-roll; {players} was not tied.",
    "two_to_roll": "A chouette needs at least two players to roll for seats.",
    "already_sits": "{players} already sits at this table.",
    "joiner_twice": "A joining player is named twice.",
    "room_for": "This table takes at most {most} players: room for {room}.",
    "not_at_table_of": "{player} is not at this table ({players}).",
    "leave_two": "{player} cannot leave a table of two: end the session instead.",
    "already_partner": "{partner} is already the Partner.",
    "partner_one_only": "{partner} is already the Partner; the Box has one only.",
    "partner_from_team": "Only a Team player can be Partner: {players}.",
    "captain_needed": "The Team needs a Captain: no one can be spared as Partner.",
    "partner_min": "A Partner needs at least {least} players at the table; there are "
                   "{players}.",
    "no_partner_to_release": "The Box has no Partner to release.",
    "no_passing": "A player may not pass the box under these rules.",
    # rules/notation.py
    "pid_form": "{pid} is not a Position ID: those are 14 characters of A-Z, a-z, 0-9, + and "
                "/, like 4HPwATDgc/ABMA.",
    "pid_not": "{pid} is not a Position ID.",
    "pid_checkers": "{pid} has more than {most} checkers for one side.",
    "pid_bits": "{pid} is not a Position ID: it has bits past the last point.",
    "pid_illegal": "{pid} is not a legal position: {why}",
    "no_point": "There is no point {point}: points run 1-24, bar is 25, off is 0.",
    "cant_read": "Can't read {word}: write plays like 24/18 13/11, bar/22*, 6/off, 8/5(2) or "
                 "24/20/16.",
    "wrong_way": "{word} moves the wrong way: checkers leave the bar and go off.",
    "backwards": "{word} moves backwards: points must go down, like 13/7.",
    "repeat_count": "{word}: a repeat count runs from 1 to 4.",
    "can_move": "You can move with {roll}: {legal}.",
    "no_checker": "You have no checker on {point} to move in {play}. Legal with {roll}: "
                  "{legal}.",
    "not_legal": "{play} is not legal with {roll}. Legal: {legal}.",
    "ambiguous": "{play} could be {plays}: write the point where the checker hits.",
    # rules/board.py
    "position_counts": "A position needs 25 counts a side (points 1-24 and the bar), none "
                       "negative, at most {most} checkers: got {side}.",
    "point_shared": "Both sides have checkers on point {point} of the side on roll.",
    "points_run": "Points run 1-24 with the bar as 25: got {point}.",
    "dice_run": "Dice run from 1 to 6: got {dice}.",
    # rules/ledger.py
    "split_mode": "Unknown Box/Partner split {mode}; use one of {modes}",
    "round_mode": "Unknown rounding {mode}; use one of {modes}",
    # rules/rotation.py
    "summary_strangers": "A game summary may name only Team players ({team}), not {strangers}.",
    "leaves_once": "A player leaves a game once: dropped, doubled out or settled.",
    "acting_once": "A player becomes Acting Captain once a game.",
    "captain_not_acting": "The Captain {captain} cannot also be Acting Captain.",
    "villages_no_partner": "The Villages rules have no Partner: release the Partner first.",
    "danish_beat_all": "Danish rotation: the Box stays until beaten; use 'beat_all'.",
    # rules/ruleset.py
    "min_max_players": "min_players ({least}) cannot exceed max_players ({most}).",
    "stake_steps": "stake_multiples must be doubling steps from 1, such as [1, 2, 4, 8].",
    "raccoons_need_beavers": "Raccoons need beavers: set beavers = true or raccoons = "
                             "\"never\".",
    "aardvarks_need_raccoons": "Aardvarks need raccoons: allow raccoons or set aardvarks = "
                               "\"never\".",
    "danish_retention": "The Danish rotation keeps the Box only if the Box beats everyone: "
                        "box_retention = \"beat_all\" goes with rotation = \"danish\".",
    "whole_points_odd": "A sheet of whole points (whole_points = true, Atlanta 4.2) gives the "
                        "odd point to the Box: odd_point = \"box\" goes with it (or "
                        "whole_points = false to keep halves).",
    "villages_partner": "The Villages rotation has no Partner: partner = \"never\" goes with "
                        "rotation = \"villages\".",
    "option_value": "{option} must be {allowed}, not {value}.",
    "no_option_close": "{where}: there is no house-rule option called {key}. Did you mean "
                       "{close}?",
    "no_option": "{where}: there is no house-rule option called {key}. The options are: "
                 "{options}.",
    "no_preset_close": "There is no rule set called {name}. Did you mean {close}? Choose one "
                       "of: {presets}.",
    "no_preset": "There is no rule set called {name}. Choose one of: {presets}.",
    "preset_broken": "preset {name} ({file}): {why}",
    # rules/commands.py: a transcript line or a command that is malformed
    "needs_by": "{verb} needs \"by\": the player who sends it.",
    "needs": "{verb} needs {key}.",
    "command_form": "A command is a JSON object with \"cmd\", like {{\"cmd\": \"join\", "
                    "\"by\": \"ann\"}}.",
    "no_command": "There is no command {verb}. Commands: {verbs}.",
    "by_form": "\"by\" names a player: got {by}.",
    "takes": "{verb} takes no {strays}; it takes {keys}.",
    "takes_nothing": "{verb} takes no {strays}; it takes nothing more.",
    "wrong_form": "{verb}: {key} has the wrong form ({value}).",
    "players_form": "{verb}: {key} lists players by name, like [\"ann\", \"bo\"] (got "
                    "{value}).",
    # rules/table.py (choices after a game)
    "open_choice": "{player}: {choice}",
    "not_your_choice": "That choice isn't yours to make now (open choices: {choices}). After "
                       "a game the Partner whose turn to captain comes may captain "
                       "({captain}), and a new Box may play alone ({alone}).",
    "not_your_choice_none": "That choice isn't yours to make now (open choices: none). After "
                            "a game the Partner whose turn to captain comes may captain "
                            "({captain}), and a new Box may play alone ({alone}).",
    # words inside messages: what a refusal is about (`doing`, `what`), a cube's state, an
    # action on a cube (a verb: "You can't {action} now") and the turn waiting for its answer
    "doing_new_double": "a new double",
    "doing_extra": "an extra",
    "doing_roll": "the roll",
    "doing_play": "the play",
    "doing_result": "the result",
    "doing_resignation": "a resignation",
    "doing_start": "start a game",
    "doing_seats": "draw the seats",
    "doing_end": "end the session",
    "what_opening_roll": "An opening roll",
    "what_roll": "A roll",
    "what_settlement": "A settlement",
    "what_price": "A price",
    "state_centred": "centred",
    "state_offered": "offered",
    "state_beavered": "beavered",
    "state_raccooned": "raccooned",
    "state_aardvarked": "aardvarked",
    "state_taken": "taken",
    "state_dropped": "dropped",
    "state_settled": "settled",
    "verb_double": "double",
    "verb_take": "take",
    "verb_drop": "drop",
    "verb_beaver": "beaver",
    "verb_raccoon": "raccoon",
    "verb_aardvark": "aardvark",
    "verb_score": "score",
    "verb_settle": "settle",
    "verb_sell": "sell",
    "verb_freeze": "freeze",
    "turn_double": "the double",
    "turn_beaver": "the beaver",
    "turn_raccoon": "the raccoon",
    "turn_aardvark": "the aardvark",
    "tied_with": "{players} and {player}",  # players tied on their rolls (`Ties`)
    # news: a seating's reason (rules.events.Seated)
    "seated_lost_place": "{players} lost their place: still disconnected (FIBS §6)",
    "seated_partner_required": "{player} partners the Box (a Partner is required)",
    "seated_back": "{player} is back and sits down at the end",
    "seated_joins": "{player} joins",
    "seated_leaves": "{player} leaves",
    "seated_partner": "{player} partners the Box",
    "seated_captains": "{player} captains instead of staying Partner (Atlanta 6.4)",
    "seated_alone": "{player} plays alone; {partner} goes to the end of the Team (Atlanta 6.3)",
    "seated_passes": "{player} passes the box",
    # news: a cube's turn with figures of its own (rules.events.CubeTurned.action), and who
    # answered for a player (CubeTurned.why)
    "turned_settle": "settle {points}",
    "turned_settle_rolled": "settle {rolled}",
    "turned_bought_out": "bought out for {price}",
    "turned_bought_out_rolled": "bought out for {price} ({rolled})",
    "turned_sold": "sold to {buyer} for {price}",
    "turned_sold_rolled": "sold to {buyer} for {price} ({rolled})",
    "turned_resigned": "resignation accepted ({kind})",
    "turned_half_dropped": "take ({dropper} dropped their half)",
    "rolled_off": "the fraction of {fraction} rolled off ({throws}), {paid} paid",
    "kind_single": "single",
    "kind_gammon": "gammon",
    "kind_backgammon": "backgammon",
    "answered_timed_out": "{player} (timed out)",
    "answered_away": "{player} (away)",
    "answered_late": "{player} (nobody answered in time)",
    # news and the score sheet: a payment (rules.ledger.Transfer.phrase)
    "transfer_pays": "{payer} pays {payee} {points}",
}


def text(code: str, params: Mapping[str, object], name: Callable[[str], str] = str,
         words: Words = str) -> str:
    """The message `code` in words, each player parameter written as `name(key)`; `words`
    gives the template in the reader's language (bot/words/i18n.py), English by default."""
    return words(MESSAGES[code]).format(
        **{key: _words(value, name, words) for key, value in params.items()})


def _words(value: object, name: Callable[[str], str], words: Words) -> object:
    if isinstance(value, Player):
        return name(value)
    if isinstance(value, Players):
        return ", ".join(map(name, value))
    if isinstance(value, Phrase):
        return value.text(name, words)
    if isinstance(value, Phrases):
        return "; ".join(p.text(name, words) for p in value)
    if isinstance(value, Ties):
        return "; ".join(_tied(list(map(name, group)), words) for group in value)
    return value


def _tied(names: list[str], words: Words) -> str:
    """Players tied on their rolls: "Ann and Bo", "Ann and Bo and Cy"."""
    out = names[0] if names else ""
    for name in names[1:]:
        out = words(MESSAGES["tied_with"]).format(players=out, player=name)
    return out
