"""A favicon and app icons: every page's head links the icons, the files are
there at the sizes they claim, and /favicon.ico (which browsers ask for on a first visit
whatever the page links) answers with the icon instead of a 404."""

import re
import struct
import zlib
from pathlib import Path

import pytest
from django.conf import settings
from django.templatetags.static import static

ICONS = Path(settings.BASE_DIR) / "static" / "icons"
# name -> (width, height) of each PNG icon
PNG_SIZES = {
    "icon-192.png": (192, 192),
    "icon-512.png": (512, 512),
    "icon-maskable-512.png": (512, 512),
    "apple-touch-icon.png": (180, 180),
    "badge-96.png": (96, 96),
}


def png_size(path):
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", path
    return struct.unpack(">II", data[16:24])


@pytest.mark.parametrize("name", sorted(PNG_SIZES))
def test_png_icons_have_their_sizes(name):
    assert png_size(ICONS / name) == PNG_SIZES[name]


def test_maskable_icon_is_opaque_and_apple_icon_too():
    # Colour type 2 (RGB, no alpha): launchers and iOS cut their own shape from it.
    for name in ("icon-maskable-512.png", "apple-touch-icon.png"):
        assert (ICONS / name).read_bytes()[25] == 2, name


def test_favicon_ico_holds_16_32_and_48_px():
    data = (ICONS / "favicon.ico").read_bytes()
    reserved, kind, count = struct.unpack("<HHH", data[:6])
    assert (reserved, kind) == (0, 1)
    sizes = {data[6 + 16 * i] for i in range(count)}
    assert sizes == {16, 32, 48}


def test_svg_favicon_is_an_svg():
    text = (ICONS / "favicon.svg").read_text()
    assert text.lstrip().startswith("<svg") and 'viewBox="0 0 64 64"' in text


@pytest.mark.django_db
def test_pages_link_the_icons(client):
    html = client.get("/accounts/login/").content.decode()
    links = dict(re.findall(r'<link rel="(icon|apple-touch-icon)" href="([^"]+)"', html))
    assert links["apple-touch-icon"] == static("icons/apple-touch-icon.png")
    icons = re.findall(r'<link rel="icon" href="([^"]+)"', html)
    assert icons == [static("icons/favicon.ico"), static("icons/favicon.svg")]


@pytest.mark.django_db
def test_favicon_ico_is_not_a_404(client):
    answer = client.get("/favicon.ico")
    assert answer.status_code == 302
    assert answer["Location"] == static("icons/favicon.ico")
    assert "max-age=86400" in answer["Cache-Control"]


def test_notification_badge_is_a_white_shape_on_transparency():
    # Android draws a notification's badge from its alpha channel alone: an opaque badge
    # would be a plain white square. Colour type 6 is RGBA; every pixel is white.
    data = (ICONS / "badge-96.png").read_bytes()
    assert data[25] == 6
    start = data.index(b"IDAT")
    (length,) = struct.unpack(">I", data[start - 4 : start])
    raw = zlib.decompress(data[start + 4 : start + 4 + length])
    stride = 1 + 96 * 4
    alphas = set()
    for row in range(96):
        line = raw[row * stride : (row + 1) * stride]
        assert line[0] == 0  # no filter: the pixels can be read as they are
        pixels = line[1:]
        assert all(pixels[i : i + 3] == b"\xff\xff\xff" for i in range(0, len(pixels), 4))
        alphas.update(pixels[3::4])
    assert 0 in alphas and 255 in alphas
