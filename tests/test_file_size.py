"""The rule «no Python file over 500 lines» (docs/architecture.md) and its check in ``dev.py test``: a long file
is found, one of 500 lines passes, the virtualenv, migrations and tests are not counted, and ``dev.py test``
stops with the list before pytest runs."""

from __future__ import annotations

from pathlib import Path

import pytest

import dev


def write_lines(path: Path, count: int, *, last_break: bool = True) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    text = "x = 1\n" * count
    path.write_text(text if last_break else text + "y = 2")


def test_a_file_of_501_lines_is_found_and_one_of_500_passes(tmp_path: Path) -> None:
    write_lines(tmp_path / "app" / "long.py", 501)
    write_lines(tmp_path / "app" / "fits.py", 500)
    write_lines(tmp_path / "top.py", 500, last_break=False)  # wc -l counts line breaks: 500
    assert dev.long_python_files(tmp_path) == [(Path("app/long.py"), 501)]


def test_the_virtualenv_migrations_and_tests_are_not_counted(tmp_path: Path) -> None:
    for skipped in (".venv/lib/site.py", "app/migrations/0001_initial.py", "tests/test_app.py"):
        write_lines(tmp_path / skipped, 900)
    write_lines(tmp_path / "app" / "notes.txt", 900)  # only Python files count
    assert dev.long_python_files(tmp_path) == []
    write_lines(tmp_path / "app" / "views.py", 700)
    write_lines(tmp_path / "bench" / "run.py", 600)
    assert dev.long_python_files(tmp_path) == [(Path("app/views.py"), 700), (Path("bench/run.py"), 600)]


def test_dev_test_stops_with_the_list_before_pytest(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    write_lines(tmp_path / "app" / "long.py", 501)
    commands: list[tuple[object, ...]] = []
    monkeypatch.setenv("PREFERANS_DEV", "1")
    monkeypatch.setattr(dev, "ROOT", tmp_path)
    monkeypatch.setattr(dev, "ensure_venv", lambda requirements: None)
    monkeypatch.setattr(dev, "sh", lambda *args, check=True: commands.append(args) or 0)
    monkeypatch.setattr(dev, "manage", lambda *args: commands.append(args))
    with pytest.raises(SystemExit) as stopped:
        dev.test([])
    assert stopped.value.code == 1
    assert "app/long.py: 501 lines" in capsys.readouterr().err
    assert not any("pytest" in map(str, command) for command in commands)


def test_dev_test_goes_on_to_pytest_when_every_file_fits(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_lines(tmp_path / "app" / "fits.py", 500)
    commands: list[tuple[object, ...]] = []
    monkeypatch.setenv("PREFERANS_DEV", "1")
    monkeypatch.setattr(dev, "ROOT", tmp_path)
    monkeypatch.setattr(dev, "ensure_venv", lambda requirements: None)
    monkeypatch.setattr(dev, "sh", lambda *args, check=True: commands.append(args) or 0)
    monkeypatch.setattr(dev, "manage", lambda *args: commands.append(args))
    with pytest.raises(SystemExit) as finished:
        dev.test([])
    assert finished.value.code == 0
    assert any("pytest" in map(str, command) for command in commands)
