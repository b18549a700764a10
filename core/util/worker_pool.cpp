#include "core/util/worker_pool.hpp"

#include <algorithm>

namespace aaren {

WorkerPool::WorkerPool(int threads) {
  if (threads <= 0) threads = int(std::max(1u, std::thread::hardware_concurrency()));
  for (int i = 1; i < threads; ++i) threads_.emplace_back([this, i] { work(i); });
}

WorkerPool::~WorkerPool() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  for (auto& t : threads_) t.join();
}

void WorkerPool::drain(int worker) {
  for (int task = next_.fetch_add(1); task < tasks_; task = next_.fetch_add(1)) call_(fn_, task, worker);
}

void WorkerPool::run_tasks(int tasks, void* fn, Trampoline call) {
  if (tasks <= 0) return;
  {
    std::lock_guard lock(mutex_);
    fn_ = fn;
    call_ = call;
    tasks_ = tasks;
    next_.store(0);
    busy_ = int(threads_.size());
    ++generation_;
  }
  wake_.notify_all();
  drain(0);
  std::unique_lock lock(mutex_);
  finished_.wait(lock, [this] { return busy_ == 0; });
}

void WorkerPool::work(int worker) {
  long seen = 0;
  for (;;) {
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [&] { return stopping_ || generation_ != seen; });
      if (stopping_) return;
      seen = generation_;
    }
    drain(worker);
    {
      std::lock_guard lock(mutex_);
      if (--busy_ == 0) finished_.notify_one();
    }
  }
}

}  // namespace aaren
