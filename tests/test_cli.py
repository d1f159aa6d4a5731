"""The command line: contracts of --json, one-line errors with exit code 2, reproducibility."""

import json
import subprocess
import sys

import pytest

from drawodds.cli import main


def run(capsys, *args):
    with pytest.raises(SystemExit) as exc:
        main(list(args))
    cap = capsys.readouterr()
    return exc.value.code, cap.out, cap.err


def test_eval_json(capsys):
    code, out, _ = run(capsys, "eval", "A♠A♥K♠7♠3♠", "--json")
    assert code == 0
    assert json.loads(out) == {"cards": ["As", "Ah", "Ks", "7s", "3s"], "category": "one_pair",
                               "strength": json.loads(out)["strength"], "description": "pair of aces, K-7-3",
                               "strengths": 7462}


def test_eval_joker(capsys):
    code, out, _ = run(capsys, "eval", "AsAhAdAcJk", "--joker", "--json")
    assert code == 0 and json.loads(out)["category"] == "five_of_a_kind"
    assert json.loads(out)["strength"] == json.loads(out)["strengths"] == 7463    # the best of 7,463, not of 7,462
    code, out, _ = run(capsys, "eval", "Jk As Ah Ad Ac", "--joker")
    assert "strength 7463 of 7463" in out


@pytest.mark.parametrize("args, fragment", [
    (["eval", "AsAhKs7s3x"], "unknown suit"),
    (["eval", "AsAsKs7s3s"], "duplicate"),
    (["eval", "AsKs7s3s"], "got 4"),
    (["eval", "AsKs7s3sJk"], "joker"),
    (["keep", "AsAhKs7s3s", "--max-draw", "9"], "max draw must be one of"),
    (["keep", "AsAhKs7s3s", "--rules", "holdem"], "unknown rule set"),
    (["keep", "AsAhKs7s3s", "--exact", "--opponents", "2"], "--exact"),
    (["keep", "AsAhKs7s3s", "--opponents", "1", "--vs", "5"], "cannot draw 5"),
    (["rules", "nosuch"], "unknown rule set"),
])
def test_bad_input_is_one_line_and_exit_2(capsys, args, fragment):
    code, out, err = run(capsys, *args)
    assert code == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("drawodds: error:") and fragment in lines[0]
    assert "Traceback" not in err


def test_unknown_option_is_a_usage_error(capsys):
    code, _, err = run(capsys, "keep", "AsAhKs7s3s", "--colour", "red")
    assert code == 2 and "No such option" in err


def test_keep_exact_json(capsys):
    code, out, _ = run(capsys, "keep", "AsAhKs7s3s", "--exact", "--json")
    d = json.loads(out)
    assert code == 0 and d["opponents"] == 0 and d["holds"][0]["equity"] is None
    assert d["holds"][0]["keep"] == ["As", "Ah"]


def test_keep_json_same_seed_same_output(capsys):
    args = ["keep", "AsAhKs7s3s", "--opponents", "1", "--trials", "20000", "--seed", "5", "--json"]
    _, a, _ = run(capsys, *args)
    _, b, _ = run(capsys, *args)
    assert a == b
    d = json.loads(a)
    assert d["seed"] == 5 and d["trials"] == 20000 and d["holds"][0]["equity_se"] > 0


def test_keep_csv(capsys, tmp_path):
    path = tmp_path / "holds.csv"
    code, _, _ = run(capsys, "keep", "AsAhKs7s3s", "--exact", "--csv", str(path))
    lines = path.read_text().splitlines()
    assert code == 0 and lines[0].startswith("keep,discard,draw") and len(lines) == 27
    assert lines[1].startswith("As Ah,Ks 7s 3s,3")


def test_keep_table_marks_the_best(capsys):
    code, out, _ = run(capsys, "keep", "AsAhKs7s3s", "--opponents", "1", "--trials", "20000", "--top", "3")
    assert code == 0 and "★ best" in out and "A♠ A♥" in out


def test_rules_listing(capsys):
    code, out, _ = run(capsys, "rules", "jackpot", "--json")
    assert code == 0 and json.loads(out)["opener"] == "jacks"


def test_python_dash_m_and_version():
    res = subprocess.run([sys.executable, "-m", "drawodds", "--version"], capture_output=True, text=True)
    assert res.returncode == 0 and res.stdout.startswith("drawodds ")


def test_only_a_solve_keeps_every_blas_thread(fresh_python) -> None:
    """The program runs OpenBLAS on one thread, except for a solve (large matrix products), whichever
    way the command is named; a thread count the user set is kept."""
    code = ("import os, sys\nsys.argv = ['drawodds'] + sys.argv[1:]\nimport drawodds.cli as cli\n"
            "cli._tune_process()\nprint(os.environ.get('OPENBLAS_NUM_THREADS'))")

    def threads(*args: str, **env: str) -> str:
        return fresh_python(code, *args, **env).strip()

    assert threads("keep", "AsAhKs7s3s") == "1"
    assert threads("solve") == threads("--lang", "sv", "solve", "--json") == "None"
    assert threads("keep", "AsAh", OPENBLAS_NUM_THREADS="2") == "2"


def test_the_command_line_package_answers_version_alone_and_lends_the_apps_names(fresh_python) -> None:
    """``drawodds --version`` loads neither the application nor numpy; every other name is the application's."""
    code = ("import sys, io, contextlib\nimport drawodds.cli as cli\nout = io.StringIO()\n"
            "with contextlib.redirect_stdout(out):\n    code = cli.run(['--version'])\n"
            "print(code, out.getvalue().strip(), 'numpy' in sys.modules, 'drawodds.cli.application' in sys.modules)\n"
            "from drawodds.cli import app, application\n"
            "print(len(app.registered_commands) == len(application.COMMANDS),\n"
            "      cli.Interrupted is application.Interrupted)")
    first, second = fresh_python(code).strip().splitlines()
    assert first.split()[:2] == ["0", "drawodds"] and first.split()[-2:] == ["False", "False"]
    assert second == "True True"
