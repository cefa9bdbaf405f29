import os
from pathlib import Path

import pytest
from hypothesis import settings

settings.register_profile("ci", max_examples=300, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

#: The repository's test data (published classes).
DATA = Path(__file__).resolve().parents[2] / "tests" / "data"


@pytest.fixture
def data_dir():
    return DATA
