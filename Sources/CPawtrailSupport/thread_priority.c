#define _GNU_SOURCE
#include "CPawtrailSupport.h"

#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

int CPawtrailSupport_set_thread_nice(int nice) {
    // On Linux a nice value belongs to a thread, named by its kernel thread id.
    pid_t tid = (pid_t)syscall(SYS_gettid);
    return setpriority(PRIO_PROCESS, (id_t)tid, nice);
}
