"""The chart of a player's error rate by session (`/chouette stats`): a PNG of the size
asked, each session's point where the frame puts it (oldest on the left, 0 at the top, a
worse rate lower), every word through `words`, any name drawn."""

import io

import pytest
from PIL import Image

from bot.render.chart import HEIGHT, WIDTH, plot_frame, render_chart
from bot.render.theme import DEFAULT

BANDS = ((-5.0, "Super Grandmaster"), (-8.0, "Grandmaster"), (-13.0, "Master"),
         (-20.0, "Advanced"), (-32.0, "Intermediate"), (float("-inf"), "Beginner"))
POINTS = [("1", -12.4), ("2", -8.1), ("3", -15.3), ("4", -4.1), ("5", 0.0), ("6", -22.8)]


def image(data: bytes) -> Image.Image:
    assert data.startswith(b"\x89PNG")
    return Image.open(io.BytesIO(data)).convert("RGB")


def test_a_png_of_the_size_asked() -> None:
    assert image(render_chart(POINTS, "Ann", bands=BANDS)).size == (WIDTH, HEIGHT) == (800, 480)
    assert image(render_chart(POINTS, "Ann", width=1200, height=720)).size == (1200, 720)


def test_the_points_in_order_oldest_left_worse_lower() -> None:
    frame = plot_frame(POINTS, BANDS)
    xs = [frame.x(i) for i in range(len(POINTS))]
    ys = [frame.y(rate) for _, rate in POINTS]
    assert xs == sorted(xs) and len(set(xs)) == len(xs)
    assert frame.left < xs[0] and xs[-1] < frame.right
    assert ys[4] == frame.top  # a perfect session, at the top
    by_rate = sorted(range(len(POINTS)), key=lambda i: -POINTS[i][1])  # best first
    assert [ys[i] for i in by_rate] == sorted(ys)  # the worse, the lower
    assert frame.low <= -22.8 and ys[5] < frame.bottom  # the worst inside the plot
    drawn = image(render_chart(POINTS, "Ann", bands=BANDS))
    for x, y in zip(xs, ys, strict=True):  # each session's dot where the frame puts it
        pixel = drawn.getpixel((round(x), round(y)))
        assert all(abs(a - b) <= 8 for a, b in zip(pixel, DEFAULT.felt, strict=True)), (x, y)


def test_every_word_goes_through_words_and_any_name_draws() -> None:
    asked: list[str] = []

    def words(text: str) -> str:
        asked.append(text)
        return "·" + text

    render_chart(POINTS, "李小龍 🎲 Ærø", bands=BANDS, words=words)
    assert "{name}: error rate by session" in asked
    assert "sessions, oldest first" in asked
    assert {"Super Grandmaster", "Master", "Advanced"} <= set(asked)  # the ratings


@pytest.mark.parametrize("points", [[], [("1", -6.0)], [("1", 0.0), ("2", 0.0)],
                                    [("1", -450.5), ("2", -0.2)]])
def test_few_points_none_or_far_apart(points: list[tuple[str, float]]) -> None:
    assert image(render_chart(points, "Bo", bands=BANDS)).size == (800, 480)
