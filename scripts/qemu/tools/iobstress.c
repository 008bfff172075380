// SPDX-License-Identifier: GPL-2.0-only
/*
 * iobstress: hammer a band device with device-mapper ioctls, far faster
 * than dmsetup can (one dmsetup call takes most of a second in a TCG
 * guest), to race messages against suspend and resume on SMP.
 *
 *   iobstress msg <dm-name> <seconds> <group-id> [<min-%>]
 *	loop: detach <id>, attach <id>, weight <id>:<n>, limits <id> max=<n>iops
 *   iobstress suspend <dm-name> <seconds> [<min-%>]
 *	loop: suspend, resume
 *   iobstress show <dm-name> <seconds> [<min-%>]
 *	loop: show, reset (they walk the groups of cgroups, which come and go
 *	under them)
 *
 * Prints, per operation, how many were sent and how many succeeded, and
 * the rounds per second.  A refused message (say, detach of a group
 * another process already detached) is counted, not fatal: the kernel's
 * answer to the race is what is under test, and a WARN or lockdep report
 * fails the run.  But a stress whose operations all fail tests nothing:
 * it exits 1 if no round completed or if any operation succeeded less
 * than <min-%> of the time (default 50; the caller states a lower floor
 * where processes contend for the same device or group).
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

#define NR_OPS 4

/* Send operation @i of the round and count it in @sent and @ok. */
static void op(unsigned long *sent, unsigned long *ok, int i, int ret)
{
	sent[i]++;
	if (ret >= 0)
		ok[i]++;
}

int main(int argc, char **argv)
{
	static const char *const names[3][NR_OPS] = {
		{ "detach", "attach", "weight", "limits" },
		{ "suspend", "resume" },
		{ "show", "reset" },
	};
	unsigned long rounds = 0, sent[NR_OPS] = { 0 }, ok[NR_OPS] = { 0 };
	int mode, nops, i, min_pct, bad = 0, nargs;
	time_t start, end;
	char msg[128];
	double secs;

	mode = argc < 2 ? -1 : !strcmp(argv[1], "msg") ? 0 :
	       !strcmp(argv[1], "suspend") ? 1 : !strcmp(argv[1], "show") ? 2 : -1;
	nargs = mode == 0 ? 5 : 4;
	if (mode < 0 || argc < nargs || argc > nargs + 1) {
		fprintf(stderr, "usage: iobstress msg NAME SECONDS ID [MIN%%] | suspend NAME SECONDS [MIN%%] | show NAME SECONDS [MIN%%]\n");
		return 2;
	}
	nops = mode == 0 ? 4 : 2;
	min_pct = argc > nargs ? atoi(argv[nargs]) : 50;
	ctl = open("/dev/mapper/control", O_RDWR);
	if (ctl < 0) {
		perror("/dev/mapper/control");
		return 2;
	}
	start = time(NULL);
	end = start + atoi(argv[3]);
	while (time(NULL) < end) {
		if (mode == 1) {
			op(sent, ok, 0, dm_suspend(argv[2], 1));
			op(sent, ok, 1, dm_suspend(argv[2], 0));
		} else if (mode == 2) {
			op(sent, ok, 0, dm_message(argv[2], "show"));
			op(sent, ok, 1, dm_message(argv[2], "reset"));
		} else {
			snprintf(msg, sizeof(msg), "detach %s", argv[4]);
			op(sent, ok, 0, dm_message(argv[2], msg));
			snprintf(msg, sizeof(msg), "attach %s", argv[4]);
			op(sent, ok, 1, dm_message(argv[2], msg));
			snprintf(msg, sizeof(msg), "weight %s:%lu", argv[4],
				 rounds % 7 + 1);
			op(sent, ok, 2, dm_message(argv[2], msg));
			snprintf(msg, sizeof(msg), "limits %s max=%luiops",
				 argv[4], 100 + rounds % 50);
			op(sent, ok, 3, dm_message(argv[2], msg));
		}
		rounds++;
	}
	/* Leave the device resumed whatever happened. */
	if (mode == 1)
		dm_suspend(argv[2], 0);
	secs = difftime(time(NULL), start);
	printf("iobstress %s %s: %lu rounds in %.0f s (%.1f per second);",
	       argv[1], argv[2], rounds, secs, secs > 0 ? rounds / secs : 0);
	for (i = 0; i < nops; i++) {
		printf(" %s %lu/%lu", names[mode][i], ok[i], sent[i]);
		if (!sent[i] || ok[i] * 100 < sent[i] * (unsigned long)min_pct)
			bad = 1;
	}
	printf(" succeeded (floor %d %%)%s\n", min_pct,
	       bad || !rounds ? ": FAILED" : "");
	return rounds && !bad ? 0 : 1;
}
