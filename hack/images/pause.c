/* The pod sandbox process, as Kubernetes' pause: it holds the pod's
 * namespaces open, reaps orphans re-parented to it (it is PID 1 when the pod
 * shares its PID namespace), and exits 0 on SIGINT or SIGTERM. Built with
 * `gcc -static -Os` by hack/images/inputs.ts; no libraries in the image. */
#include <signal.h>
#include <stddef.h>
#include <sys/wait.h>
#include <unistd.h>

static void stop(int sig) {
  (void)sig;
  _exit(0);
}

static void reap(int sig) {
  (void)sig;
  while (waitpid(-1, NULL, WNOHANG) > 0) {
  }
}

int main(void) {
  struct sigaction sa = {0};
  sa.sa_handler = stop;
  if (sigaction(SIGINT, &sa, NULL) < 0 || sigaction(SIGTERM, &sa, NULL) < 0) return 1;
  sa.sa_handler = reap;
  sa.sa_flags = SA_NOCLDSTOP | SA_RESTART;
  if (sigaction(SIGCHLD, &sa, NULL) < 0) return 2;
  for (;;) pause();
}
