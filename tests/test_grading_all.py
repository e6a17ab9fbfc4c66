"""The nbgrader round trip of tests/test_grading.py over every exercise, not only its sample:
the same submissions, seeds and checks (`make test-full`; about 200 s on two cores)."""

from __future__ import annotations

import pytest

from tests.test_grading import (  # noqa: F401  (the fixtures and tests pytest collects here)
    course,
    scores,
    test_a_hand_over_gets_nothing_and_is_told_why,
    test_a_mistake_gets_partial_marks_and_readable_feedback,
    test_an_untouched_submission_scores_zero_on_every_graded_cell,
    test_every_exercise_went_through,
    test_every_verdict_is_its_sentence_alone,
    test_nbgrader_reports_no_changed_cell,
    test_no_output_holds_the_seed,
    test_the_release_is_the_student_course_tags_included,
    test_the_solutions_get_full_marks_under_both_seeds,
)

pytestmark = [pytest.mark.slow, pytest.mark.full]


@pytest.fixture(scope="module")
def graded() -> tuple[str, ...] | None:
    """Every exercise of the course."""
    return None
