# SPDX-License-Identifier: MIT
"""An executor for the tests that passes every task to a real one (a process pool, a
thread pool, a Dask client's executor) and watches the traffic: the arguments of every
task, the pickled size of every result that comes back to the caller, and a hook that
runs once, when the first task is done, to change or break something in mid-job.  The
caller hears of no task's end before the hook has run to its end, so that whatever it
checks after the tasks sees the change (the tasks themselves run on meanwhile)."""
import pickle
import threading
from concurrent.futures import Executor, Future, ThreadPoolExecutor


class RecordingExecutor(Executor):
    def __init__(self, inner, on_first_done=None):
        self.inner = inner
        self.on_first_done = on_first_done
        self.tasks = []         # the arguments of every task submitted
        self.result_bytes = []  # the pickled size of every result received
        self.done_at_hook = None  # tasks done when the hook ran (mid-job: fewer than all)
        self.lock = threading.Lock()
        self.futures = []  # the inner executor's, one a task
        self.hook_ran = threading.Event()
        if on_first_done is None:
            self.hook_ran.set()

    def submit(self, fn, *args, **kwargs):
        future = self.inner.submit(fn, *args, **kwargs)
        told = Future()  # what the caller waits on
        with self.lock:
            self.tasks.append(args)
            self.futures.append(future)
        future.add_done_callback(lambda f: self._done(f, told))
        return told

    def _done(self, future, told):
        if not future.cancelled() and future.exception() is None:
            with self.lock:
                self.result_bytes.append(len(pickle.dumps(future.result())))
        with self.lock:
            hook, self.on_first_done = self.on_first_done, None
            if hook is not None:
                self.done_at_hook = sum(f.done() for f in self.futures)
        if hook is not None:
            try:
                hook()
            finally:
                self.hook_ran.set()
        self.hook_ran.wait()
        if future.cancelled():
            told.cancel()
        elif told.set_running_or_notify_cancel():
            if future.exception() is not None:
                told.set_exception(future.exception())
            else:
                told.set_result(future.result())

    def shutdown(self, wait=True, **kwargs):
        self.inner.shutdown(wait=wait, **kwargs)

    def mid_job(self):
        """Whether the hook ran while tasks of the job were still to finish."""
        return self.done_at_hook is not None and self.done_at_hook < len(self.tasks)


class RecordingThreadPool(RecordingExecutor, ThreadPoolExecutor):
    """A RecordingExecutor over a thread pool that is itself a ThreadPoolExecutor, as the
    tasks do run in this process (crcforge then lets them share an open file's descriptor)."""
