#pragma once
// A fixed set of threads that runs numbered tasks: run(n, f) calls f(task, worker) for every
// task in 0..n-1 and returns when all are done. Threads are created once, and a run allocates
// nothing, so training steps can use it in their inner loop. Which worker takes which task is
// not fixed; callers that need bitwise-reproducible results give each task its own output.
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <type_traits>
#include <vector>

namespace aaren {

class WorkerPool {
 public:
  // threads <= 0: one per hardware thread.
  explicit WorkerPool(int threads = 0);
  ~WorkerPool();
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  int size() const { return int(threads_.size()) + 1; }  // the calling thread works too

  template <class F>
  void run(int tasks, F&& f) {
    using Fn = std::remove_reference_t<F>;
    run_tasks(tasks, const_cast<void*>(static_cast<const void*>(&f)),
              [](void* fn, int task, int worker) { (*static_cast<Fn*>(fn))(task, worker); });
  }

 private:
  using Trampoline = void (*)(void*, int, int);
  void run_tasks(int tasks, void* fn, Trampoline call);
  void work(int worker);
  void drain(int worker);

  std::vector<std::thread> threads_;
  std::mutex mutex_;
  std::condition_variable wake_, finished_;
  long generation_ = 0;
  bool stopping_ = false;
  int busy_ = 0;
  int tasks_ = 0;
  std::atomic<int> next_{0};
  void* fn_ = nullptr;
  Trampoline call_ = nullptr;
};

}  // namespace aaren
