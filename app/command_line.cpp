#include "app/command_line.hpp"

#include <algorithm>
#include <iostream>
#include <set>

#include "app/commands.hpp"
#include "app/help_format.hpp"
#include "app/man_page.hpp"
#include "gpu/device_info.hpp"

namespace aaren::cli {

namespace {

const char* const kDescription = "Attention as an RNN (Feng et al., 2024), exact and fast, on your own numbers.";
const char* const kFooter = "Exit codes: 0 success, 1 error in the data or files, 2 error on the command line.";

// The tasks of `train` and `forecast`, the one place that lists them: a new task is a line here.
struct TaskCommands {
  const char* name;
  const char* data;  // what the task learns from, for the list of commands
  void (*add)(CommandLine&);
};
const TaskCommands kTasks[] = {
    {"forecast", "a CSV time series, the default", add_forecasting_commands},
    {"events", "an event log", add_event_commands},
    {"classify", "labelled series", add_classify_commands},
    {"rl", "an offline reinforcement-learning data set", add_rl_task_commands},
};

// --task's value in the words after `train`, `forecast` or `baseline` (forecast when absent).
std::string task_in(const Arguments& args) {
  std::string task = "forecast";
  if (args.empty() || (args[0] != "train" && args[0] != "forecast" && args[0] != "baseline")) return task;
  for (std::size_t i = 1; i < args.size(); ++i) {
    if (args[i] == "--task" && i + 1 < args.size()) task = args[i + 1];
    if (args[i].rfind("--task=", 0) == 0) task = args[i].substr(7);
  }
  return task;
}

// A mistake CLI11 found, in our words.
std::string usage_message(const CLI::ParseError& error) {
  const std::string what = error.what();
  if (dynamic_cast<const CLI::ArgumentMismatch*>(&error) && what.find("missing") != std::string::npos)
    return "option " + what.substr(0, what.find(':')) + " needs a value";
  if (dynamic_cast<const CLI::ArgumentMismatch*>(&error) && what.find("flag override") != std::string::npos)
    return "option --" + what.substr(0, what.find(' ')) + " takes no value";
  if (dynamic_cast<const CLI::ArgumentMismatch*>(&error) && what.find("At Most 1") != std::string::npos)
    return what.substr(0, what.find(':')) + " is given more than once; give it once";
  return what;
}

// The chain of chosen commands, root first.
std::vector<const CLI::App*> chosen_chain(const CLI::App* root) {
  std::vector<const CLI::App*> chain = {root};
  for (std::vector<CLI::App*> chosen = root->get_subcommands(); !chosen.empty();
       chosen = chosen.front()->get_subcommands())
    chain.push_back(chosen.front());
  return chain;
}

std::string path_of(const std::vector<const CLI::App*>& chain) {
  std::string path;
  for (const CLI::App* app : chain) path += (path.empty() ? "" : " ") + app->get_name();
  return path;
}

// " (an option of --task events)" when `option`, unknown to this task's `train` or `forecast`,
// belongs to another task's; else nothing.
std::string other_tasks_option(const std::vector<const CLI::App*>& chain, const std::string& option) {
  if (chain.size() != 2) return "";
  const std::string command = chain.back()->get_name(), name = option.substr(0, option.find('='));
  if (command != "train" && command != "forecast") return "";
  for (const TaskCommands& task : kTasks) {
    CommandLine tree({command, "--task", task.name});
    const CLI::App* other = tree.root()->get_subcommand(command);
    const CLI::Option* found = other->get_option_no_throw(name);
    if (found && !found->get_group().empty()) return std::string(" (an option of --task ") + task.name + ")";
  }
  return "";
}

}  // namespace

CLI::Option* add_task_option(CLI::App* app, const std::string& task) {
  std::vector<std::string> names;
  for (const TaskCommands& t : kTasks) names.push_back(t.name);
  static std::string value;  // the tree is built for the task given; the option only accepts it
  CLI::Option* option = add_choice(app, "--task", value, names, "the task; each has its own options");
  option->type_name(task)->group(kOptionsGroup);
  if (task != "forecast") option->required();
  return option;
}

namespace {

// "--task forecast: a CSV time series (the default); events: ..."
std::string tasks_summary() {
  std::string text;
  for (const TaskCommands& task : kTasks)
    text += std::string(text.empty() ? "--task " : "; ") + task.name + ": " + task.data;
  return text;
}

}  // namespace

std::string train_description(const std::string& text) {
  return "train a model (" + tasks_summary() + ")\n\n" + text;
}

std::string forecast_description(const std::string& text) {
  return "predict with a trained run (" + tasks_summary() + ")\n\n" + text;
}

CommandLine::CommandLine(const Arguments& args) : root_(kDescription, "aaren"), task_(task_in(args)) {
  // An unknown task gets the default's tree, whose --task then refuses it with the list of tasks.
  const TaskCommands* task = std::find_if(std::begin(kTasks), std::end(kTasks),
                                          [this](const TaskCommands& t) { return task_ == t.name; });
  if (task == std::end(kTasks)) task = std::begin(kTasks);
  task_ = task->name;
  root_.formatter(std::make_shared<HelpFormatter>());
  root_.allow_extras();
  root_.footer(kFooter);
  root_.add_flag("--version", version_, "version and build information")->group(kOptionsGroup);
  root_.add_flag("--man-page", man_page_, "print the man page")->group("");  // for the install, not listed
  add_attention_command(*this);
  add_bench_commands(*this);
  add_demo_command(*this);
  add_device_command(*this);
  add_params_command(*this);
  task->add(*this);
  if (root_.get_subcommands([](CLI::App* c) { return c->get_name() == "baseline"; }).empty()) {
    // Only classification has one; the options it takes are accepted here so that the reason is what
    // the user reads, not "unknown option".
    CLI::App* baseline = add_command(&root_, "baseline", "the yardsticks of a task (--task classify)", []() -> int {
      throw UsageError("baseline takes --task classify; forecasting and event models print their baselines when "
                       "they are trained (aaren train)");
    });
    add_task_option(baseline, task_);
    static std::string ignored;
    for (const char* name : {"--data", "--test", "--scaling"}) baseline->add_option(name, ignored)->group("");
  }
  add_rl_commands(*this);
  add_command(&root_, "completion", "bash completion for aaren: 'source <(aaren completion)'", [] {
    std::cout << bash_completion();
    return 0;
  });
}

CLI::App* CommandLine::add_command(CLI::App* parent, const std::string& name, const std::string& description,
                                   std::function<int()> run) {
  CLI::App* command = parent->add_subcommand(name, description);
  command->allow_extras();
  if (run) runs_[command] = std::move(run);
  return command;
}

int CommandLine::run(const Arguments& args) {
  if (args.empty()) {
    std::cerr << root_.help();
    return 2;
  }
  std::vector<std::string> reversed(args.rbegin(), args.rend());  // CLI11 reads the words from the back
  try {
    root_.parse(reversed);
  } catch (const CLI::CallForHelp&) {
    std::cout << root_.help();  // the chosen command's
    return 0;
  } catch (const CLI::ParseError& error) {
    throw UsageError(usage_message(error));
  }
  const std::vector<const CLI::App*> chain = chosen_chain(&root_);
  for (std::size_t depth = 0; depth < chain.size(); ++depth) {
    const std::vector<std::string> extra = chain[depth]->remaining();
    if (extra.empty()) continue;
    const std::string& word = extra.front();
    if (word.rfind("-", 0) == 0)
      throw UsageError("unknown option " + word + " for '" + path_of(chain) + "'" + other_tasks_option(chain, word));
    if (chain[depth]->get_subcommands([](const CLI::App*) { return true; }).empty())
      throw UsageError("unexpected argument '" + word + "' for '" + path_of(chain) + "'");
    const std::vector<const CLI::App*> reached(chain.begin(), chain.begin() + std::ptrdiff_t(depth) + 1);
    throw UsageError("unknown command '" + word + "'" + (depth == 0 ? "" : " for '" + path_of(reached) + "'"));
  }
  if (man_page_) {
    std::cout << man_page();
    return 0;
  }
  if (version_) {
    std::cout << "aaren " << AAREN_VERSION << " (Aaren Studio)\n"
              << "CUDA backend: " << (gpu::built_with_cuda() ? "built" : "not built") << "; "
              << gpu::describe(gpu::query_device()) << "\n";
    return 0;
  }
  const auto run = runs_.find(chain.back());
  if (run == runs_.end()) {  // a command that only groups others ('aaren bench')
    std::cerr << root_.help();
    return 2;
  }
  return run->second();
}

std::string CommandLine::help_hint() const {
  const std::vector<const CLI::App*> chain = chosen_chain(&root_);
  std::string hint = path_of(chain);
  const std::string& last = chain.back()->get_name();
  if ((last == "train" || last == "forecast" || last == "baseline") && task_ != "forecast") hint += " --task " + task_;
  return hint + " --help";
}

namespace {

// The options of `app` that its --help lists.
std::vector<ManOption> man_options(const CLI::App* app) {
  std::vector<ManOption> options;
  for (const CLI::Option* option : listed_options(app)) {
    ManOption entry;
    for (const std::string& name : option->get_snames()) entry.names.push_back("-" + name);
    for (const std::string& name : option->get_lnames()) entry.names.push_back("--" + name);
    if (option->get_expected_min() > 0) entry.value = option->get_type_name();
    entry.description = (option->get_required() ? "(required) " : "") + option->get_description();
    options.push_back(std::move(entry));
  }
  return options;
}

bool same_section(const ManSection& a, const ManSection& b) {
  if (a.usage != b.usage || a.description != b.description || a.options.size() != b.options.size()) return false;
  for (std::size_t i = 0; i < a.options.size(); ++i)
    if (a.options[i].names != b.options[i].names || a.options[i].value != b.options[i].value ||
        a.options[i].description != b.options[i].description)
      return false;
  return true;
}

}  // namespace

std::string CommandLine::man_page() {
  // Every command of every task's tree, depth first; a command whose options differ between tasks
  // (train, forecast, baseline) gets a section per task.
  std::vector<std::string> order;
  std::map<std::string, std::vector<std::pair<std::string, ManSection>>> variants;
  const auto collect = [&](const auto& self, const CLI::App* app, const std::string& path,
                           const std::string& task) -> void {
    for (const CLI::App* sub : app->get_subcommands([](const CLI::App*) { return true; })) {
      const std::string here = path + " " + sub->get_name();
      ManSection section{here, "", sub->get_description(), man_options(sub)};
      if (sub->get_subcommands([](const CLI::App*) { return true; }).empty())
        section.usage = here + required_options_usage(sub) + " [options]";
      if (!variants.count(here)) order.push_back(here);
      variants[here].emplace_back(task, std::move(section));
      self(self, sub, here, task);
    }
  };
  for (const TaskCommands& task : kTasks) {
    CommandLine tree({"train", "--task", task.name});
    collect(collect, &tree.root_, "aaren", task.name);
  }
  ManPage page;
  page.program = "aaren";
  page.summary = "the command line of Aaren Studio: attention as an RNN, trained and measured";
  page.version = AAREN_VERSION;
  page.synopsis = {"aaren <command> [options]", "aaren --version"};
  page.description = std::string(kDescription) +
                     "\n\nEach command below lists its options. Those of train, forecast and baseline depend on the "
                     "task (" + tasks_summary() + "). 'aaren <command> --help' prints the same text; 'source <(aaren completion)' completes commands and options in bash.";
  CommandLine root_tree({});
  page.options = man_options(&root_tree.root_);
  page.commands_title = "COMMANDS";
  for (const std::string& path : order) {
    std::vector<std::pair<std::string, ManSection>>& tasks = variants[path];
    const bool shared = std::all_of(tasks.begin(), tasks.end(),
                                    [&](const auto& t) { return same_section(t.second, tasks.front().second); });
    for (auto& [task, section] : tasks) {
      if (!shared) {
        section.title += " --task " + task;
        if (!section.usage.empty())
          section.usage.insert(path.size(), section.usage.find("--task") == std::string::npos ? " --task " + task : "");
      }
      page.commands.push_back(std::move(section));
      if (shared) break;
    }
  }
  page.exit_status = kFooter;
  page.see_also = {"aaren-studio(1)"};
  return render_man_page(page);
}

std::string CommandLine::bash_completion() {
  // Every command's words: its subcommands or its options, over the trees of every task.
  std::map<std::string, std::set<std::string>> words;
  const auto collect = [&words](const auto& self, const CLI::App* app, const std::string& path) -> void {
    std::set<std::string>& here = words[path];
    for (const CLI::Option* option : app->get_options())
      for (const std::string& name : option->get_lnames())
        if (!option->get_group().empty()) here.insert("--" + name);
    for (const CLI::App* sub : app->get_subcommands([](const CLI::App*) { return true; })) {
      here.insert(sub->get_name());
      self(self, sub, path + " " + sub->get_name());
    }
  };
  for (const TaskCommands& task : kTasks) {
    CommandLine tree({"train", "--task", task.name});
    collect(collect, &tree.root_, "");
  }
  std::string script =
      "# bash completion for aaren, generated by 'aaren completion' from its own declarations\n"
      "_aaren() {\n"
      "  local cur=\"${COMP_WORDS[COMP_CWORD]}\" path=\"\" i words=\"\"\n"
      "  for ((i = 1; i < COMP_CWORD; i++)); do\n"
      "    case \"${COMP_WORDS[i]}\" in -*) break ;; *) path=\"$path ${COMP_WORDS[i]}\" ;; esac\n"
      "  done\n"
      "  case \"$path\" in\n";
  for (const auto& [path, names] : words) {
    std::string list;
    for (const std::string& name : names) list += (list.empty() ? "" : " ") + name;
    script += "    \"" + path + "\") words=\"" + list + "\" ;;\n";
  }
  script +=
      "  esac\n"
      "  COMPREPLY=($(compgen -W \"$words\" -- \"$cur\"))\n"
      "}\n"
      "complete -o default -F _aaren aaren\n";
  return script;
}

}  // namespace aaren::cli
