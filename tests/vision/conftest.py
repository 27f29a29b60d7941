"""Small rendered scenes shared by the vision tests (drawn from the committed faces only)."""

from __future__ import annotations

import numpy as np
import pytest

from models.art.faces import load_faces


@pytest.fixture(scope="session")
def faces() -> dict[str, list[np.ndarray]]:
    return {name: [image] for name, image in load_faces().items()}
