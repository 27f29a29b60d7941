"""Motion and focus blur for classifier training batches, drawn per crop on the fly.

The rendered frames blur 30 % of the time (models/drawn/render.py: a line 3-8 frame pixels long at
any
angle), so the crops cut from them carry blur only as often as that; the held-out tiles still read
wrong are mostly in the blurriest frames (docs/vision.md). Blurring a share of every batch again
shows the classifier each crop smeared in every direction, not only as its table happened to be.
A crop pixel is about one frame pixel (the table spans about 1,000 px of a 1080p frame and is
rectified to 1024), so lengths are drawn in the same range as the renderer's. In the tenth
session it lifted validation crop accuracy (0.9445 -> 0.9481) but not the held-out frames (a
fine-tune without it read the tuning frames as well; models/weights/RECIPE.md).
"""

from __future__ import annotations

KERNEL = 9  # odd; fits a line of up to 8 px


def line_kernels(lengths, angles):  # type: ignore[no-untyped-def]
    """Normalised KERNEL x KERNEL kernels (N x 1 x K x K): a soft line of ``lengths`` px (N)
    through the centre at ``angles`` radians (N). A line of length 0 is a small Gaussian
    (sigma 0.5 px), as a slightly defocused lens."""
    import torch

    half = KERNEL // 2
    steps = torch.arange(-half, half + 1, dtype=torch.float32, device=lengths.device)
    gy, gx = torch.meshgrid(steps, steps, indexing="ij")
    ux, uy = torch.cos(angles)[:, None, None], torch.sin(angles)[:, None, None]
    reach = (lengths / 2)[:, None, None]
    along = (gx * ux + gy * uy).clamp(-reach, reach)  # the nearest point of the segment
    distance2 = (gx - along * ux) ** 2 + (gy - along * uy) ** 2
    kernels = torch.exp(-distance2 / (2 * 0.5**2))
    kernels = kernels / kernels.sum(dim=(1, 2), keepdim=True)
    return kernels[:, None]


def blur_some(batch, generator, share: float, longest: float = 7.0):  # type: ignore[no-untyped-def]
    """``batch`` (N x C x H x W floats) with about ``share`` of its crops blurred along a line of
    0..``longest`` px at a random angle; the rest unchanged."""
    import torch
    from torch.nn import functional

    if share <= 0:  # draws nothing: runs without blur stay as they were
        return batch
    n, channels, h, w = batch.shape
    chosen = torch.nonzero(torch.rand(n, generator=generator, device=batch.device) < share)[:, 0]
    if len(chosen) == 0:
        return batch
    m = len(chosen)
    lengths = longest * torch.rand(m, generator=generator, device=batch.device)
    angles = torch.pi * torch.rand(m, generator=generator, device=batch.device)
    kernels = line_kernels(lengths, angles).repeat_interleave(channels, dim=0)
    half = KERNEL // 2
    stacked = batch[chosen].reshape(1, m * channels, h, w)  # one channel group per crop colour
    padded = functional.pad(stacked, (half,) * 4, mode="replicate")
    blurred = functional.conv2d(padded, kernels, groups=m * channels).reshape(m, channels, h, w)
    out = batch.clone()
    out[chosen] = blurred
    return out
