#include "ChildProcess.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

extern char **environ;

namespace terrazzo::test {
namespace {

using runtime::Platform;

constexpr const char *kStatusBegin = "TERRAZZO-CHILD-STATUS-BEGIN\n";
constexpr const char *kStatusEnd = "\nTERRAZZO-CHILD-STATUS-END\n";

/// The text after `key` up to the end of its line in `output`.
std::string lineAfter(const std::string &output, const std::string &key) {
  size_t at = output.find(key);
  if (at == std::string::npos)
    return "";
  at += key.size();
  return output.substr(at, output.find('\n', at) - at);
}

/// In a child, reports initialize() and the rest of ChildReport and exits.
bool runAsChildIfAsked() {
  const char *which = std::getenv(kChildVariable);
  if (!which)
    return false;
  Platform platform =
      std::strcmp(which, "hip") == 0 ? Platform::Hip : Platform::Cuda;
  runtime::Status first = runtime::initialize(platform);
  runtime::Status second = runtime::initialize(platform);
  std::printf("%s%s%s", kStatusBegin, first.ok() ? "OK" : first.message.c_str(),
              kStatusEnd);
  std::printf("TERRAZZO-CHILD-SAME: %d\n", first.message == second.message);
  std::printf("TERRAZZO-CHILD-AVAILABLE: %d\n",
              runtime::isAvailable(platform) ? 1 : 0);
  runtime::Result<runtime::DeviceProperties> properties =
      runtime::getDeviceProperties(0, platform);
  std::string target = properties.ok() ? properties.value.target
                                       : properties.status.message;
  for (char &c : target)
    if (c == '\n')
      c = ' ';
  std::printf("TERRAZZO-CHILD-TARGET: %s\n", target.c_str());
  std::printf("TERRAZZO-CHILD-DEFAULT: %s\n",
              runtime::platformName(runtime::defaultPlatform()));
  std::fflush(stdout);
  std::_Exit(0);
}

[[maybe_unused]] const bool kIsChild = runAsChildIfAsked();

} // namespace

ChildReport
runChild(Platform platform,
         const std::vector<std::pair<std::string, const char *>> &environment) {
  ChildReport report;
  int fds[2];
  if (pipe(fds) != 0)
    return report;

  std::vector<std::string> entries;
  for (char **entry = environ; *entry; ++entry) {
    bool replaced = std::strncmp(*entry, kChildVariable,
                                 std::strlen(kChildVariable)) == 0;
    for (const auto &[name, value] : environment)
      replaced |= std::strncmp(*entry, (name + "=").c_str(),
                               name.size() + 1) == 0;
    if (!replaced)
      entries.push_back(*entry);
  }
  for (const auto &[name, value] : environment)
    if (value)
      entries.push_back(name + "=" + value);
  entries.push_back(std::string(kChildVariable) + "=" +
                    runtime::platformName(platform));
  std::vector<char *> envp;
  for (std::string &entry : entries)
    envp.push_back(entry.data());
  envp.push_back(nullptr);
  char self[] = "/proc/self/exe";
  char *argv[] = {self, nullptr};

  pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    return report;
  }
  if (pid == 0) {
    dup2(fds[1], STDOUT_FILENO);
    dup2(fds[1], STDERR_FILENO);
    close(fds[0]);
    close(fds[1]);
    execve(self, argv, envp.data());
    _exit(127);
  }
  close(fds[1]);
  char buffer[4096];
  ssize_t n;
  while ((n = read(fds[0], buffer, sizeof(buffer))) > 0)
    report.output.append(buffer, static_cast<size_t>(n));
  close(fds[0]);
  int waitStatus = 0;
  waitpid(pid, &waitStatus, 0);
  if (!WIFEXITED(waitStatus) || WEXITSTATUS(waitStatus) != 0)
    return report;

  size_t begin = report.output.find(kStatusBegin);
  size_t end = report.output.find(kStatusEnd);
  if (begin == std::string::npos || end == std::string::npos || end < begin)
    return report;
  begin += std::strlen(kStatusBegin);
  report.status = report.output.substr(begin, end - begin);
  report.sameOnSecondCall =
      report.output.find("TERRAZZO-CHILD-SAME: 1") != std::string::npos;
  report.available =
      report.output.find("TERRAZZO-CHILD-AVAILABLE: 1") != std::string::npos;
  report.target = lineAfter(report.output, "TERRAZZO-CHILD-TARGET: ");
  report.defaultPlatform = lineAfter(report.output, "TERRAZZO-CHILD-DEFAULT: ");
  report.ran = true;
  return report;
}

} // namespace terrazzo::test
