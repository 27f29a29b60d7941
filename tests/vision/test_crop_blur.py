"""The classifier's on-the-fly blur (models/training/crop_blur.py): kernels, shares, and what it
does."""

from __future__ import annotations

import math

import pytest

torch = pytest.importorskip("torch", reason="training extra (pip install -e '.[train]')")

from models.training.crop_blur import KERNEL, blur_some, line_kernels  # noqa: E402


def test_kernels_keep_brightness_and_lie_along_their_angle() -> None:
    kernels = line_kernels(torch.tensor([0.0, 6.0, 6.0]), torch.tensor([0.0, 0.0, math.pi / 2]))
    assert torch.allclose(kernels.sum(dim=(1, 2, 3)), torch.ones(3))
    point, flat, upright = kernels[:, 0]
    centre = KERNEL // 2
    assert point[centre, centre] > 0.5  # length 0: nearly a point
    # a horizontal line spreads along the centre row, a vertical one along the centre column
    assert flat[centre, centre + 3] > 0.05 > flat[centre + 3, centre]
    assert upright[centre + 3, centre] > 0.05 > upright[centre, centre + 3]


def test_no_share_draws_nothing_and_changes_nothing() -> None:
    batch = torch.rand(8, 3, 48, 36)
    generator = torch.Generator().manual_seed(3)
    before = generator.get_state()
    assert blur_some(batch, generator, 0.0) is batch
    assert torch.equal(generator.get_state(), before)  # older training runs stay reproducible


def test_blurred_crops_lose_detail_and_keep_their_mean() -> None:
    stripes = torch.zeros(64, 3, 48, 36)
    stripes[:, :, :, ::2] = 1.0  # vertical stripes one pixel wide: pure fine detail
    generator = torch.Generator().manual_seed(5)
    out = blur_some(stripes, generator, 0.5, longest=7.0)
    changed = (out - stripes).abs().flatten(1).amax(dim=1) > 1e-6
    assert 16 <= int(changed.sum()) <= 48  # about half of the batch
    assert torch.equal(out[~changed], stripes[~changed])  # the rest untouched
    contrast = (out[changed][..., 1:] - out[changed][..., :-1]).abs().mean()
    assert contrast < 0.8  # the stripes' contrast is 1.0 everywhere before
    inner = (slice(None), slice(None), slice(8, -8), slice(8, -8))  # clear of the padding
    assert torch.allclose(out[changed][inner].mean(), stripes[changed][inner].mean(), atol=0.02)
