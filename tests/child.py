"""A child Python that gets a real SIGINT (the Ctrl-C tests): started, sent the signal
once it says "go", and killed if it has not ended in time. When it hangs, the failure
shows where: the child dumps every thread's stack (faulthandler, on SIGUSR1) before it
is killed, so a rare hang can be read from one CI log."""

from __future__ import annotations

import signal
import subprocess
import sys
import time

import pytest

# first lines of every child: SIGUSR1 dumps the stacks of all its threads on stderr
_DUMP_ON_USR1 = (
    "import faulthandler, signal\nfaulthandler.register(signal.SIGUSR1, all_threads=True)\n"
)


def sigint_child(
    code: str,
    delay: float = 0.3,
    *,
    go_on: str = "stderr",
    ignore: bool = False,
    limit: float = 30.0,
) -> tuple[int, str, str, float]:
    """Run ``code`` in a child Python (SIGINT as Python sets it, or ignored), wait for
    the line "go" on its ``go_on`` stream ("stdout" or "stderr"), send SIGINT ``delay``
    seconds later; return its exit code, the rest of its output and error, and the
    seconds from the signal to its end. A child still running ``limit`` seconds after
    the signal fails the test with the stacks of its threads."""

    def start() -> None:
        signal.signal(signal.SIGINT, signal.SIG_IGN if ignore else signal.SIG_DFL)

    child = subprocess.Popen(
        [sys.executable, "-c", _DUMP_ON_USR1 + code],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=start,
    )
    try:
        stream = child.stderr if go_on == "stderr" else child.stdout
        assert stream is not None
        line = stream.readline()
        if line != "go\n":
            child.kill()
            out, err = child.communicate()
            pytest.fail(f"the child did not say go: {line!r}\n{out}\n{err}")
        time.sleep(delay)
        child.send_signal(signal.SIGINT)
        sent = time.perf_counter()
        try:
            out, err = child.communicate(timeout=limit)
        except subprocess.TimeoutExpired:
            child.send_signal(signal.SIGUSR1)  # its stacks, then kill it
            time.sleep(1.0)
            child.kill()
            out, err = child.communicate()
            pytest.fail(f"the child still ran {limit:.0f} s after SIGINT; its output:\n"
                        f"{out[-2000:]}\nits threads:\n{err[-6000:]}")
        return child.returncode, out, err, time.perf_counter() - sent
    finally:
        child.kill()


def ctrl_c_command(argv: list[str], warm: str, delay: float) -> tuple[str, str]:
    """``catbox ARGV`` in a child that first runs ``warm`` (Python lines loading what the
    command will use, so that the signal lands in its work), gets SIGINT ``delay`` seconds
    after, and must end with exit code 130 saying that what it shows was proven by then;
    returns its output and error."""
    code = (
        "import sys\n"
        "from catbox_solver.cli import main\n"
        f"{warm}\n"
        "print('go', file=sys.stderr, flush=True)\n"
        f"main({argv!r})\n"
    )
    returncode, out, err, _ = sigint_child(code, delay)
    assert returncode == 130, err
    assert err.rstrip().endswith("stopped by Ctrl-C: shown is what was proven by then")
    return out, err
