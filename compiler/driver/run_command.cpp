#include "gql/compiler/run_command.hpp"

#include <sys/wait.h>
#include <fcntl.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include "gql/error.hpp"

namespace gql::compiler {

int run_command(const std::vector<std::string>& argv, std::string& output) {
  if (argv.empty()) throw Error(ErrorKind::internal, "run_command: empty command");
  // Prepared before fork: the child may only call async-signal-safe functions.
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  int pipe_fds[2];
  if (pipe2(pipe_fds, O_CLOEXEC) != 0)
    throw Error(ErrorKind::jit, std::string("cannot create a pipe: ") + std::strerror(errno));
  const pid_t pid = fork();
  if (pid < 0) {
    close(pipe_fds[0]);
    close(pipe_fds[1]);
    throw Error(ErrorKind::jit, std::string("cannot start ") + argv[0] + ": " + std::strerror(errno));
  }
  if (pid == 0) {
    dup2(pipe_fds[1], STDOUT_FILENO);
    dup2(pipe_fds[1], STDERR_FILENO);
    execvp(args[0], args.data());
    const char* why = std::strerror(errno);
    (void)!write(STDERR_FILENO, "cannot run ", 11);
    (void)!write(STDERR_FILENO, args[0], std::strlen(args[0]));
    (void)!write(STDERR_FILENO, ": ", 2);
    (void)!write(STDERR_FILENO, why, std::strlen(why));
    (void)!write(STDERR_FILENO, "\n", 1);
    _exit(127);
  }
  close(pipe_fds[1]);
  std::array<char, 4096> buf;
  ssize_t got;
  while ((got = read(pipe_fds[0], buf.data(), buf.size())) != 0) {
    if (got < 0) {
      if (errno == EINTR) continue;
      break;
    }
    output.append(buf.data(), static_cast<size_t>(got));
  }
  close(pipe_fds[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

std::string command_line(const std::vector<std::string>& argv) {
  std::string out;
  for (const auto& a : argv) out += (out.empty() ? "" : " ") + a;
  return out;
}

}  // namespace gql::compiler
