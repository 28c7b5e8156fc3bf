"""The guided lessons in a real browser (Voilà and Debian's Chromium at 1280×800): a lesson solved by a click, a
wrong try that gets the hint and "Try again", "Next", the German switch inside a lesson, and the feedback beside the
board inside the viewport without scrolling."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page

import speicherstadt_lab as sl
from tests.support.browser import VIEWPORT, settle, wait_text

TIMEOUT = 30_000  # ms for one step
BOARD = ".ssl-lessons .ssl-board"
FEEDBACK = ".ssl-lessons .ssl-lesson-feedback"
PROGRESS = ".ssl-lessons .ssl-lesson-progress"
GAMES = [("speicherstadt", None), ("speicherstadt", "kaispeicher"), ("packet_row", None)]


def text(page: Page, selector: str) -> str:
    return page.locator(selector).first.inner_text()


def in_view(page: Page, selector: str) -> bool:
    """The element lies wholly inside the 1280×800 viewport, the page not scrolled."""
    box = page.evaluate("s => { const r = document.querySelector(s).getBoundingClientRect();"
                        " return [r.left, r.top, r.right, r.bottom, window.scrollX, window.scrollY]; }", selector)
    left, top, right, bottom, sx, sy = box
    return sx == 0 and sy == 0 and left >= 0 and top >= 0 and right <= VIEWPORT["width"] and \
        bottom <= VIEWPORT["height"]


def go_to(page: Page, game: str, n: int) -> None:
    """The lesson set of ``game`` (its label in the set menu), at lesson ``n`` (by "← Previous" and "Next →")."""
    page.select_option(".ssl-lessons .ssl-lesson-sets select", label=game)
    settle(page)
    for _ in range(max(len(sl.lessons(g, e)) for g, e in GAMES)):  # steps enough for the longest set
        now = int(text(page, PROGRESS).split()[1])
        if now == n:
            return
        page.click(".ssl-lessons button.ssl-lesson-" + ("next" if now < n else "prev"))
        settle(page)
    raise AssertionError(f"could not reach lesson {n}: {text(page, PROGRESS)}")


def done_dots(page: Page) -> int:
    return page.locator(".ssl-lessons .ssl-lesson-dots .ssl-dot.done").count()


def place(page: Page, space: int) -> None:
    page.click(f'{BOARD} .ssl-col[data-space="{space}"]')
    settle(page)


def test_a_wrong_try_gets_a_hint_and_try_again_then_the_lesson_is_solved(tutorial_session: dict[str, Any]) -> None:
    page: Page = tutorial_session["page"]
    go_to(page, "Die Speicherstadt", 1)
    assert text(page, PROGRESS) == "Lesson 1 of 7"
    assert "Red to move" in text(page, ".ssl-lessons .ssl-lesson-task")
    place(page, 0)  # the task asks for the Contract on space 2
    wait_text(page, FEEDBACK, "Not quite")
    assert "Hint" in text(page, FEEDBACK) and "third water space" in text(page, FEEDBACK)
    assert in_view(page, f"{FEEDBACK} .bad") and in_view(page, ".ssl-lessons .ssl-lesson-task")
    page.click(".ssl-lessons button.ssl-lesson-retry")
    settle(page)
    wait_text(page, FEEDBACK, "feedback on your move")
    assert "Red to move" in text(page, ".ssl-lessons .ssl-lesson-task")
    place(page, 2)
    wait_text(page, FEEDBACK, "Well done")
    for part in (".ok", "ul", "summary"):  # the verdict, what happened and the rule's link, all without scrolling
        assert in_view(page, f"{FEEDBACK} {part}"), part
    page.click(f"{FEEDBACK} summary")  # the rule text, one click away
    page.wait_for_selector(f"{FEEDBACK} details[open] p", state="visible", timeout=TIMEOUT)
    assert "lowest free building space" in text(page, f"{FEEDBACK} details p")
    assert page.locator(".ssl-lessons .ssl-lesson-dots .ssl-dot.done.here").count() == 1
    assert not tutorial_session["errors"], tutorial_session["errors"]


def test_next_lesson_and_the_german_switch_keeps_it(tutorial_session: dict[str, Any]) -> None:
    page: Page = tutorial_session["page"]
    go_to(page, "Die Speicherstadt", 2)
    done = done_dots(page)
    assert "Purchase and price" in text(page, ".ssl-lessons h2")
    page.click(f"{BOARD} .ssl-btn-buy")  # the task asks to pass
    settle(page)
    wait_text(page, FEEDBACK, "Not quite")
    page.click(".ssl-topbar .widget-toggle-buttons button:has-text('DE')")
    settle(page)
    wait_text(page, PROGRESS, "Lektion 2 von 7")
    assert "Kauf und Preis" in text(page, ".ssl-lessons h2") and "Tipp" in text(page, FEEDBACK)
    assert "Noch nicht" in text(page, FEEDBACK) and in_view(page, f"{FEEDBACK} .bad")
    page.click(".ssl-lessons button.ssl-lesson-retry")
    settle(page)
    page.click(f"{BOARD} .ssl-btn-pass")
    settle(page)
    wait_text(page, FEEDBACK, "Gut gemacht")
    assert in_view(page, f"{FEEDBACK} .ok")
    page.click(".ssl-topbar .widget-toggle-buttons button:has-text('EN')")
    settle(page)
    wait_text(page, FEEDBACK, "Well done")
    assert done_dots(page) == done + 1  # progress kept for the session, through the language switch
    assert not tutorial_session["errors"], tutorial_session["errors"]


def test_a_long_answer_keeps_the_verdict_the_rule_and_the_buttons_in_view(tutorial_session: dict[str, Any]) -> None:
    page: Page = tutorial_session["page"]
    go_to(page, "Die Speicherstadt", 5)  # "Next" also skips a lesson
    assert "Fire and firemen" in text(page, ".ssl-lessons h2")
    page.click(f"{BOARD} .ssl-btn-buy")  # the fireman: the fire of the next round gives Red its points
    settle(page)
    wait_text(page, FEEDBACK, "Well done")
    assert "1st Fire" in text(page, FEEDBACK)  # the bots played on to the fire, and the feedback says what it did
    for part in (f"{FEEDBACK} .ok", f"{FEEDBACK} summary", ".ssl-lessons button.ssl-lesson-next",
                 ".ssl-lessons button.ssl-lesson-retry", ".ssl-lessons .ssl-lesson-task"):
        assert in_view(page, part), part
    assert not tutorial_session["errors"], tutorial_session["errors"]


def test_packet_row_and_kaispeicher_lessons_by_clicks_in_german(tutorial_session: dict[str, Any]) -> None:
    page: Page = tutorial_session["page"]
    page.click(".ssl-topbar .widget-toggle-buttons button:has-text('DE')")
    settle(page)
    go_to(page, "Packet Row", 1)
    wait_text(page, PROGRESS, "Lektion 1 von 5")
    assert "Einen Spielplan wählen" in text(page, ".ssl-lessons h2")
    page.click('.ssl-lessons .prb-board [data-board="bank"] .prb-btn-choose')  # the university lies on the Market
    settle(page)
    wait_text(page, FEEDBACK, "Noch nicht")
    assert "Markts" in text(page, FEEDBACK) and in_view(page, f"{FEEDBACK} .bad")
    page.click(".ssl-lessons button.ssl-lesson-retry")
    settle(page)
    page.click('.ssl-lessons .prb-board [data-board="market"] .prb-btn-choose')
    settle(page)
    wait_text(page, FEEDBACK, "Gut gemacht")
    assert in_view(page, f"{FEEDBACK} .ok") and in_view(page, f"{FEEDBACK} summary")

    go_to(page, "Die Speicherstadt + Kaispeicher", 6)
    wait_text(page, PROGRESS, "Lektion 6 von 19")
    assert "Versicherung" in text(page, ".ssl-lessons h2")
    page.click(f"{BOARD} button:has-text('Versichern')")
    settle(page)
    wait_text(page, FEEDBACK, "Gut gemacht")
    assert "Versicherung" in text(page, FEEDBACK) and in_view(page, f"{FEEDBACK} .ok")
    page.click(".ssl-topbar .widget-toggle-buttons button:has-text('EN')")
    settle(page)
    wait_text(page, FEEDBACK, "Well done")
    assert not tutorial_session["errors"], tutorial_session["errors"]


# ---- every lesson by clicks -----------------------------------------------------------------------------------

CUBE_MOVES = ("contract", "sell", "store", "keep", "deliver")
LABELS = {("insure", "en"): "Insure", ("insure", "de"): "Versichern", ("break", "en"): "Break",
          ("break", "de"): "Pause", ("double", "en"): "Double", ("double", "de"): "verdoppeln"}
SETS = (("Die Speicherstadt", "speicherstadt", None),
        ("Die Speicherstadt + Kaispeicher", "speicherstadt", "kaispeicher"), ("Packet Row", "packet_row", None))


def pick_cubes(page: Page, goods: list[str], name: Any) -> None:
    """Pick dock cubes of these goods (the same good twice: its first two cubes); only the page's own selection
    changes, nothing is sent."""
    for good in set(goods):
        for k in range(goods.count(good)):
            page.click(f'{BOARD} .ssl-dock-cubes button[aria-label="{name(good)}"] >> nth={k}')


def click_solution(page: Page, lesson: sl.Lesson, state: Any, lang: str) -> None:
    """The learner's solution move with the clicks a player would make on the lesson's board."""
    (action,) = lesson.solution
    verb, *args = action.split()

    def name(good: str) -> str:  # a cube's label
        return str(state.good_name(good, lang))

    if lesson.game == "packet_row":
        if verb == "choose":
            page.click(f'.ssl-lessons .prb-bd[data-board="{args[0]}"] .prb-btn-choose')
        elif verb == "take":
            supply = ".prb-fut" if args[1] == "future" else ".prb-cur"
            page.locator(f'.ssl-lessons .prb-bd[data-board="{args[0]}"] {supply} .prb-slot').nth(
                int(args[-1])).locator(".prb-clickable").click(timeout=TIMEOUT)
        elif verb == "fulfil":  # the one fulfilment the hand allows, from the list of options
            page.click(".ssl-lessons .prb-board .prb-opt >> nth=0")
        else:
            raise AssertionError(f"no clicks for {action!r}")
    elif verb == "place":
        page.click(f'{BOARD} .ssl-col[data-space="{args[0]}"]')
    elif verb in ("buy", "pass", "done") and not args:
        page.click(f"{BOARD} .ssl-btn-{verb}")
    elif action == "buy free":
        page.click(f"{BOARD} .ssl-btn-free")
    elif (verb, lang) in LABELS:  # the demand's and the fire's buttons, by their label
        page.click(f"{BOARD} button:has-text('{LABELS[verb, lang]}')")
    elif verb == "reserve":
        page.click(f"{BOARD} .ssl-top-card >> nth={args[0]}")
    elif verb in CUBE_MOVES:
        pick_cubes(page, args[:1], name)
        page.click(f'{BOARD} button.ssl-target[aria-label="{action}"]')
    elif verb == "convert":  # the Harbour Master: the cubes given, then the good wanted among the dock's tools
        pick_cubes(page, args[:args.index("to")], name)
        page.click(f'{BOARD} .ssl-dock-tools button[aria-label="{name(args[-1])}"]')
    elif verb == "spy":  # the own worker, then the other's worker to swap places with
        space, level, other, other_level = args
        page.click(f'{BOARD} .ssl-col[data-space="{space}"] .ssl-bslot >> nth={level} >> button.ssl-worker-btn')
        page.click(f'{BOARD} .ssl-col[data-space="{other}"] .ssl-bslot >> nth={other_level} >> button.ssl-target')
    elif verb == "auction":  # the Auction Hall's cube of that good
        page.click(f'{BOARD} .ssl-dock-extras button[aria-label$=": {name(args[0])}"]')
    elif verb == "smuggle":  # the cube on the other seat's contract
        seat, index, good = args
        page.click(f'{BOARD} .ssl-seat[data-seat="{seat}"] .ssl-contracts > :nth-child({int(index) + 1}) '
                   f'button.ssl-target[aria-label$=" {name(good)}"]')
    elif verb == "truck":  # the cube on the own contract, then the contract it goes to
        good, start, _to = args
        own = f'{BOARD} .ssl-seat[data-seat="{lesson.seat}"] .ssl-contracts'
        page.click(f'{own} > :nth-child({int(start) + 1}) button.ssl-legal[aria-label$=" {name(good)}"]')
        page.click(f'{own} button.ssl-target[aria-label="{action}"]')
    else:
        raise AssertionError(f"no clicks for {action!r}")
    settle(page)


@pytest.mark.parametrize("lang", ["en", "de"])
def test_every_lesson_solved_by_clicks_with_the_feedback_in_view(tutorial_session: dict[str, Any], lang: str) -> None:
    """Each set from its first lesson, "Next" from one to the next on the same page and board."""
    page: Page = tutorial_session["page"]
    page.click(f".ssl-topbar .widget-toggle-buttons button:has-text('{lang.upper()}')")
    settle(page)
    solved = []
    for title, game, expansion in SETS:
        found = sl.lessons(game, expansion)
        go_to(page, title, 1)
        names = found[0].start()  # the game's goods by name, for the cubes' labels
        for n, lesson in enumerate(found, 1):
            assert text(page, PROGRESS).split()[1] == str(n), (lesson.id, text(page, PROGRESS))
            if page.locator(".ssl-lessons button.ssl-lesson-retry").is_visible():
                page.click(".ssl-lessons button.ssl-lesson-retry")
                settle(page)
            click_solution(page, lesson, names, lang)
            wait_text(page, FEEDBACK, "Well done" if lang == "en" else "Gut gemacht")
            assert lesson.say("explanation", lang)[:40] in text(page, FEEDBACK), lesson.id
            for part in (f"{FEEDBACK} .ok", f"{FEEDBACK} summary", ".ssl-lessons button.ssl-lesson-next"):
                assert in_view(page, part), (lesson.id, part)
            solved.append(lesson.id)
            if n < len(found):
                page.click(".ssl-lessons button.ssl-lesson-next")
                settle(page)
    assert len(solved) == sum(len(sl.lessons(g, e)) for g, e in GAMES)  # every lesson, none left out
    assert not tutorial_session["errors"], tutorial_session["errors"]
