// SPDX-License-Identifier: GPL-2.0-only
/*
 * iobstress: hammer a band device with device-mapper ioctls, far faster
 * than dmsetup can (one dmsetup call takes most of a second in a TCG
 * guest), to race messages against suspend and resume on SMP.
 *
 *   iobstress msg <dm-name> <seconds> <group-id>
 *	loop: detach <id>, attach <id>, weight <id>:<n>, limits <id> max=<n>iops
 *   iobstress suspend <dm-name> <seconds>
 *	loop: suspend, resume
 *   iobstress show <dm-name> <seconds>
 *	loop: show, reset (they walk the groups of cgroups, which come and go
 *	under them)
 *
 * Prints the number of rounds and of failed ioctls; exits 1 if no round
 * completed.  A refused message (say, detach of a group another process
 * already detached) is counted, not fatal: the kernel's answer to the race
 * is what is under test, and a WARN or lockdep report fails the run.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>
#include <linux/dm-ioctl.h>

#define BUFSZ 16384

static int ctl;

static struct dm_ioctl *dm_init(void *buf, const char *name)
{
	struct dm_ioctl *io = buf;

	memset(buf, 0, BUFSZ);
	io->version[0] = DM_VERSION_MAJOR;
	io->version[1] = 0;
	io->version[2] = 0;
	io->data_size = BUFSZ;
	io->data_start = sizeof(*io);
	snprintf(io->name, sizeof(io->name), "%s", name);
	return io;
}

static int dm_message(const char *name, const char *msg)
{
	static char buf[BUFSZ] __attribute__((aligned(8)));
	struct dm_ioctl *io = dm_init(buf, name);
	struct dm_target_msg *tm = (void *)(buf + sizeof(*io));

	tm->sector = 0;
	snprintf(tm->message, BUFSZ - sizeof(*io) - sizeof(*tm), "%s", msg);
	return ioctl(ctl, DM_TARGET_MSG, io);
}

static int dm_suspend(const char *name, int suspend)
{
	static char buf[BUFSZ] __attribute__((aligned(8)));
	struct dm_ioctl *io = dm_init(buf, name);

	io->flags = suspend ? DM_SUSPEND_FLAG : 0;
	return ioctl(ctl, DM_DEV_SUSPEND, io);
}

int main(int argc, char **argv)
{
	unsigned long rounds = 0, failed = 0;
	char msg[128];
	time_t end;

	if (argc < 4 || (strcmp(argv[1], "msg") && strcmp(argv[1], "suspend") &&
			 strcmp(argv[1], "show")) ||
	    (!strcmp(argv[1], "msg") && argc < 5)) {
		fprintf(stderr, "usage: iobstress msg NAME SECONDS ID | suspend NAME SECONDS | show NAME SECONDS\n");
		return 2;
	}
	ctl = open("/dev/mapper/control", O_RDWR);
	if (ctl < 0) {
		perror("/dev/mapper/control");
		return 2;
	}
	end = time(NULL) + atoi(argv[3]);
	while (time(NULL) < end) {
		if (!strcmp(argv[1], "suspend")) {
			failed += dm_suspend(argv[2], 1) < 0;
			failed += dm_suspend(argv[2], 0) < 0;
		} else if (!strcmp(argv[1], "show")) {
			failed += dm_message(argv[2], "show") < 0;
			failed += dm_message(argv[2], "reset") < 0;
		} else {
			snprintf(msg, sizeof(msg), "detach %s", argv[4]);
			failed += dm_message(argv[2], msg) < 0;
			snprintf(msg, sizeof(msg), "attach %s", argv[4]);
			failed += dm_message(argv[2], msg) < 0;
			snprintf(msg, sizeof(msg), "weight %s:%lu", argv[4],
				 rounds % 7 + 1);
			failed += dm_message(argv[2], msg) < 0;
			snprintf(msg, sizeof(msg), "limits %s max=%luiops",
				 argv[4], 100 + rounds % 50);
			failed += dm_message(argv[2], msg) < 0;
		}
		rounds++;
	}
	/* Leave the device resumed whatever happened. */
	if (!strcmp(argv[1], "suspend"))
		dm_suspend(argv[2], 0);
	printf("iobstress %s %s: %lu rounds, %lu failed ioctls\n", argv[1],
	       argv[2], rounds, failed);
	return rounds ? 0 : 1;
}
