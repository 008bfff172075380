// SPDX-License-Identifier: GPL-2.0-only
/*
 * dm-ioband: a device-mapper target that shares the bandwidth of a block
 * device between jobs by weight.
 *
 * Band devices created with the same device-group id share one pool: the
 * weights of all band groups of all band devices of a pool are compared
 * with each other.  Bios are sorted into band groups, dispatched in
 * weighted fair order by the policy (dm-ioband-policy.c) and held while
 * the pool has as many bios in flight as the device can serve.
 */
#include <linux/cred.h>
#include <linux/device-mapper.h>
#include <linux/hrtimer.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/pid.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>
#include <kunit/visibility.h>

#include "dm-ioband.h"
#include "dm-ioband-policy.h"

#define DM_MSG_PREFIX "ioband"

/* Number of fixed arguments before the group weights. */
#define IOBAND_FIXED_ARGS	8

static const char * const ioband_type_names[IOBAND_NR_TYPES] = {
	[IOBAND_TYPE_NONE] = "none",
	[IOBAND_TYPE_PID] = "pid",
	[IOBAND_TYPE_PGRP] = "pgrp",
	[IOBAND_TYPE_UID] = "uid",
	[IOBAND_TYPE_GID] = "gid",
};

static const char * const ioband_policy_names[] = {
	[IOB_POLICY_WEIGHT] = "weight",
	[IOB_POLICY_WEIGHT_IOSIZE] = "weight-iosize",
};

/*----------------------------------------------------------------
 * Pools, band devices and band groups
 *--------------------------------------------------------------*/

/* One bandwidth pool: the band devices with one device-group id. */
struct ioband_pool {
	struct list_head list;		/* in ioband_pools */
	unsigned int id;		/* device-group id */
	unsigned int refs;		/* band devices, under ioband_pools_mutex */
	spinlock_t lock;		/* protects the policy, groups and held bios */
	struct iob_pool sched;		/* the policy's state */
	unsigned int io_throttle;	/* pass straight through below this */
	unsigned int nr_held;		/* bios held by all groups */
	struct work_struct work;	/* dispatches held bios */
	struct hrtimer timer;		/* ends the policy's idle window */
};

/* Statistics of a band group, in the order of the status line. */
struct ioband_stats {
	u64 ios[2];		/* bios, by data direction */
	u64 delayed[2];		/* bios that were held */
	u64 sectors[2];		/* sectors */
};

/* One band group: the bios of one job on one band device. */
struct ioband_group {
	struct iob_group sched;		/* policy state, under pool->lock */
	struct ioband_c *ic;		/* band device */
	u64 id;				/* group id; unused for the default */
	struct bio_list held;		/* held bios, FIFO, under pool->lock */
	struct ioband_stats stats;	/* under pool->lock */
	bool detached;			/* freed once nothing is in flight */
	struct rcu_head rcu;		/* map looks groups up under RCU */
};

/* Per band device context. */
struct ioband_c {
	struct dm_dev *dev;		/* the device below */
	struct ioband_pool *pool;	/* shared with the other band devices */
	struct mutex lock;		/* serialises messages and table changes */
	struct xarray groups;		/* attached band groups by id */
	struct ioband_group *dflt;	/* default group */
	unsigned int nr_groups;		/* attached band groups */
	enum ioband_group_type type;	/* how bios are sorted, READ_ONCE */
	bool may_hold;			/* false while suspended, under pool->lock */
	/* Pool settings this table asks for, applied when it resumes. */
	unsigned int io_throttle;
	unsigned int io_limit;
	enum iob_policy policy;
	/* dm-ioband 1.x tunables, kept so old tables and scripts work. */
	unsigned int token_base;
	unsigned int carryover;
};

/* Per bio data. */
struct ioband_bio {
	struct ioband_group *grp;	/* NULL when not scheduled */
	unsigned int sectors;		/* charged at dispatch */
	u64 dispatched;			/* dispatch time, ns */
};

static LIST_HEAD(ioband_pools);
static DEFINE_MUTEX(ioband_pools_mutex); /* protects ioband_pools and refs */
static struct workqueue_struct *ioband_wq;

/*----------------------------------------------------------------
 * Argument parsing, free of device-mapper state for KUnit
 *--------------------------------------------------------------*/

/**
 * ioband_group_type_name() - Name of a group type, as in the table.
 * @type: the group type.
 *
 * Return: the name.
 */
VISIBLE_IF_KUNIT const char *ioband_group_type_name(enum ioband_group_type type)
{
	return ioband_type_names[type];
}
EXPORT_SYMBOL_IF_KUNIT(ioband_group_type_name);

/**
 * ioband_policy_name() - Name of a policy, as in the table.
 * @policy: the policy.
 *
 * Return: the name.
 */
VISIBLE_IF_KUNIT const char *ioband_policy_name(enum iob_policy policy)
{
	return ioband_policy_names[policy];
}
EXPORT_SYMBOL_IF_KUNIT(ioband_policy_name);

/**
 * ioband_parse_group_type() - Parse a group type name.
 * @s: "none", "pid", "pgrp", "uid" or "gid".
 * @type: set to the type on success.
 *
 * Return: 0 or -EINVAL.
 */
VISIBLE_IF_KUNIT int ioband_parse_group_type(const char *s,
					     enum ioband_group_type *type)
{
	int i = match_string(ioband_type_names, IOBAND_NR_TYPES, s);

	if (i < 0)
		return -EINVAL;
	*type = i;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(ioband_parse_group_type);

/**
 * ioband_parse_policy() - Parse a policy name.
 * @s: "weight" or "weight-iosize".
 * @policy: set to the policy on success.
 *
 * Return: 0 or -EINVAL.
 */
VISIBLE_IF_KUNIT int ioband_parse_policy(const char *s,
					 enum iob_policy *policy)
{
	int i = match_string(ioband_policy_names,
			     ARRAY_SIZE(ioband_policy_names), s);

	if (i < 0)
		return -EINVAL;
	*policy = i;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(ioband_parse_policy);

/**
 * ioband_parse_weight() - Parse a weight.
 * @s: a decimal number from IOBAND_WEIGHT_MIN to IOBAND_WEIGHT_MAX.
 * @weight: set to the weight on success.
 *
 * Return: 0 or -EINVAL.
 */
VISIBLE_IF_KUNIT int ioband_parse_weight(const char *s, unsigned int *weight)
{
	unsigned int w;

	if (kstrtouint(s, 10, &w) || w < IOBAND_WEIGHT_MIN ||
	    w > IOBAND_WEIGHT_MAX)
		return -EINVAL;
	*weight = w;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(ioband_parse_weight);

/**
 * ioband_parse_group_id() - Parse a band group id.
 * @s: the id: a pid, pgrp, uid or gid.
 * @type: the device's group type; it decides what a group id is.
 * @id: set to the group id on success.
 * @error: set to a message for the user on failure.
 *
 * Return: 0 or -EINVAL.
 */
VISIBLE_IF_KUNIT int ioband_parse_group_id(const char *s,
					   enum ioband_group_type type,
					   u64 *id, const char **error)
{
	u32 v;

	if (type == IOBAND_TYPE_NONE) {
		*error = "Group type none takes no band groups";
		return -EINVAL;
	}
	/* pid, pgrp, uid and gid are 32-bit; -1 is no valid id. */
	if (kstrtou32(s, 10, &v) || v == U32_MAX ||
	    ((type == IOBAND_TYPE_PID || type == IOBAND_TYPE_PGRP) &&
	     (!v || v > PID_MAX_LIMIT))) {
		*error = "Invalid band group id";
		return -EINVAL;
	}
	*id = v;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(ioband_parse_group_id);

/**
 * ioband_parse_group_spec() - Parse "<group-id>:<weight>".
 * @s: the argument.
 * @type: the device's group type; it decides what a group id is.
 * @id: set to the group id on success.
 * @weight: set to the weight on success.
 * @error: set to a message for the user on failure.
 *
 * Return: 0 or -EINVAL.
 */
VISIBLE_IF_KUNIT int ioband_parse_group_spec(const char *s,
					     enum ioband_group_type type,
					     u64 *id, unsigned int *weight,
					     const char **error)
{
	const char *colon = strrchr(s, ':');
	char idbuf[24];
	size_t len;

	if (type == IOBAND_TYPE_NONE) {
		*error = "Group type none takes no band groups";
		return -EINVAL;
	}
	if (!colon) {
		*error = "Band group must be <group-id>:<weight>";
		return -EINVAL;
	}
	len = colon - s;
	if (!len || len >= sizeof(idbuf)) {
		*error = "Invalid band group id";
		return -EINVAL;
	}
	memcpy(idbuf, s, len);
	idbuf[len] = '\0';
	if (ioband_parse_group_id(idbuf, type, id, error))
		return -EINVAL;
	if (ioband_parse_weight(colon + 1, weight)) {
		*error = "Invalid weight: must be 1 to 1000000";
		return -EINVAL;
	}
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(ioband_parse_group_spec);

static int parse_uint(const char *arg, unsigned int max, unsigned int *val)
{
	if (kstrtouint(arg, 10, val) || *val > max)
		return -EINVAL;
	return 0;
}

/*----------------------------------------------------------------
 * Pools
 *--------------------------------------------------------------*/

static enum hrtimer_restart ioband_timer_fn(struct hrtimer *timer)
{
	struct ioband_pool *pool = container_of(timer, struct ioband_pool,
						timer);

	queue_work(ioband_wq, &pool->work);
	return HRTIMER_NORESTART;
}

static void ioband_dispatch_work(struct work_struct *work);

/* Find or create the pool of a device-group id. */
static struct ioband_pool *ioband_pool_get(unsigned int id,
					   enum iob_policy policy,
					   unsigned int io_limit,
					   unsigned int io_throttle)
{
	struct ioband_pool *pool;

	mutex_lock(&ioband_pools_mutex);
	list_for_each_entry(pool, &ioband_pools, list) {
		if (pool->id == id) {
			pool->refs++;
			goto out;
		}
	}
	pool = kzalloc(sizeof(*pool), GFP_KERNEL);
	if (!pool)
		goto out;
	pool->id = id;
	pool->refs = 1;
	spin_lock_init(&pool->lock);
	iob_pool_init(&pool->sched, policy, io_limit);
	pool->io_throttle = io_throttle;
	INIT_WORK(&pool->work, ioband_dispatch_work);
	hrtimer_init(&pool->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
	pool->timer.function = ioband_timer_fn;
	list_add(&pool->list, &ioband_pools);
out:
	mutex_unlock(&ioband_pools_mutex);
	return pool;
}

static void ioband_pool_put(struct ioband_pool *pool)
{
	mutex_lock(&ioband_pools_mutex);
	if (--pool->refs) {
		mutex_unlock(&ioband_pools_mutex);
		return;
	}
	list_del(&pool->list);
	mutex_unlock(&ioband_pools_mutex);

	/* No band device is left, so nothing is held or re-arms these. */
	hrtimer_cancel(&pool->timer);
	cancel_work_sync(&pool->work);
	hrtimer_cancel(&pool->timer);
	kfree(pool);
}

/*----------------------------------------------------------------
 * Groups
 *--------------------------------------------------------------*/

static struct ioband_group *ioband_group_alloc(struct ioband_c *ic, u64 id,
					       unsigned int weight)
{
	struct ioband_group *grp = kzalloc(sizeof(*grp), GFP_KERNEL);

	if (!grp)
		return NULL;
	grp->ic = ic;
	grp->id = id;
	bio_list_init(&grp->held);
	spin_lock_irq(&ic->pool->lock);
	iob_group_init(&ic->pool->sched, &grp->sched, weight);
	spin_unlock_irq(&ic->pool->lock);
	return grp;
}

/* Free a group with nothing held and nothing in flight.  pool->lock held. */
static void ioband_group_free(struct ioband_pool *pool,
			      struct ioband_group *grp)
{
	iob_group_exit(&pool->sched, &grp->sched);
	kfree_rcu(grp, rcu);
}

/* Attach a band group.  ic->lock held. */
static int ioband_attach(struct ioband_c *ic, u64 id, unsigned int weight,
			 char **error)
{
	struct ioband_group *grp;
	int r;

	grp = ioband_group_alloc(ic, id, weight);
	if (!grp) {
		*error = "Cannot allocate band group";
		return -ENOMEM;
	}
	r = xa_insert(&ic->groups, id, grp, GFP_KERNEL);
	if (r) {
		spin_lock_irq(&ic->pool->lock);
		ioband_group_free(ic->pool, grp);
		spin_unlock_irq(&ic->pool->lock);
		*error = r == -EBUSY ? "Band group already attached" :
			"Cannot allocate band group";
		return r;
	}
	ic->nr_groups++;
	return 0;
}

/*
 * Detach a band group: its held bios join the default group, and it is
 * freed once its bios in flight complete.  ic->lock held.
 */
static int ioband_detach(struct ioband_c *ic, u64 id)
{
	struct ioband_pool *pool = ic->pool;
	struct ioband_group *grp;
	struct bio *bio;
	u64 now;

	grp = xa_erase(&ic->groups, id);
	if (!grp)
		return -ENOENT;
	ic->nr_groups--;

	spin_lock_irq(&pool->lock);
	now = ktime_get_ns();
	while ((bio = bio_list_pop(&grp->held))) {
		iob_unqueue(&pool->sched, &grp->sched, now);
		bio_list_add(&ic->dflt->held, bio);
		iob_enqueue(&pool->sched, &ic->dflt->sched, now);
	}
	grp->detached = true;
	if (!grp->sched.in_flight)
		ioband_group_free(pool, grp);
	spin_unlock_irq(&pool->lock);
	queue_work(ioband_wq, &pool->work);
	return 0;
}

/* The group a bio belongs to.  Under rcu_read_lock(). */
static struct ioband_group *ioband_bio_group(struct ioband_c *ic)
{
	u64 id;

	switch (READ_ONCE(ic->type)) {
	case IOBAND_TYPE_PID:
		id = task_pid_nr(current);
		break;
	case IOBAND_TYPE_PGRP:
		id = task_pgrp_nr(current);
		break;
	case IOBAND_TYPE_UID:
		id = from_kuid(&init_user_ns, current_uid());
		break;
	case IOBAND_TYPE_GID:
		id = from_kgid(&init_user_ns, current_gid());
		break;
	default:
		return NULL;
	}
	if (!ic->nr_groups)
		return NULL;
	return xa_load(&ic->groups, id);
}

/*----------------------------------------------------------------
 * Dispatch and completion
 *--------------------------------------------------------------*/

/* Account a bio as dispatched.  pool->lock held. */
static void ioband_start(struct ioband_pool *pool, struct ioband_group *grp,
			 struct bio *bio, bool held, u64 now)
{
	struct ioband_bio *ib = dm_per_bio_data(bio, sizeof(*ib));

	ib->grp = grp;
	ib->sectors = bio_sectors(bio);
	ib->dispatched = now;
	iob_dispatch(&pool->sched, &grp->sched, ib->sectors, held, now);
	if (held)
		pool->nr_held--;
}

/*
 * Take the bios the policy lets go now off their groups and onto @out;
 * arm the idle-window timer if the policy asks to wait.  pool->lock held.
 */
static void ioband_pick(struct ioband_pool *pool, struct bio_list *out)
{
	struct iob_group *s;
	u64 now = ktime_get_ns();
	u64 wait = 0;

	while (pool->nr_held &&
	       (s = iob_pool_next(&pool->sched, now, &wait))) {
		struct ioband_group *grp;
		struct bio *bio;

		grp = container_of(s, struct ioband_group, sched);
		bio = bio_list_pop(&grp->held);
		if (WARN_ON_ONCE(!bio))
			break;
		ioband_start(pool, grp, bio, true, now);
		bio_list_add(out, bio);
	}
	if (pool->nr_held && wait)
		hrtimer_start(&pool->timer, ns_to_ktime(wait),
			      HRTIMER_MODE_REL);
}

static void ioband_submit_list(struct bio_list *list)
{
	struct blk_plug plug;
	struct bio *bio;

	if (bio_list_empty(list))
		return;
	blk_start_plug(&plug);
	while ((bio = bio_list_pop(list)))
		dm_submit_bio_remap(bio, NULL);
	blk_finish_plug(&plug);
}

static void ioband_dispatch_work(struct work_struct *work)
{
	struct ioband_pool *pool = container_of(work, struct ioband_pool,
						work);
	struct bio_list list = BIO_EMPTY_LIST;

	spin_lock_irq(&pool->lock);
	ioband_pick(pool, &list);
	spin_unlock_irq(&pool->lock);
	ioband_submit_list(&list);
}

static int ioband_map(struct dm_target *ti, struct bio *bio)
{
	struct ioband_c *ic = ti->private;
	struct ioband_pool *pool = ic->pool;
	struct ioband_bio *ib = dm_per_bio_data(bio, sizeof(*ib));
	struct ioband_group *grp;
	unsigned long flags;
	int dir = bio_data_dir(bio);
	bool pass;
	u64 now;

	ib->grp = NULL;
	bio_set_dev(bio, ic->dev->bdev);
	if (bio_sectors(bio) || op_is_zone_mgmt(bio_op(bio)))
		bio->bi_iter.bi_sector = dm_target_offset(ti,
						bio->bi_iter.bi_sector);
	/*
	 * Empty flushes, discards and write zeroes cost the device little
	 * and must not wait behind data: they are not scheduled.
	 */
	if (!bio_has_data(bio))
		return DM_MAPIO_REMAPPED;

	rcu_read_lock();
	grp = ioband_bio_group(ic);
	spin_lock_irqsave(&pool->lock, flags);
	rcu_read_unlock();
	if (!grp || grp->detached)
		grp = ic->dflt;
	now = ktime_get_ns();
	grp->stats.ios[dir]++;
	grp->stats.sectors[dir] += bio_sectors(bio);

	pass = !ic->may_hold ||
	       (bio_list_empty(&grp->held) &&
		(pool->sched.in_flight < min(pool->io_throttle,
					     pool->sched.io_limit) ||
		 iob_pool_may_pass(&pool->sched, &grp->sched, now)));
	if (pass) {
		ioband_start(pool, grp, bio, false, now);
		spin_unlock_irqrestore(&pool->lock, flags);
		return DM_MAPIO_REMAPPED;
	}
	grp->stats.delayed[dir]++;
	bio_list_add(&grp->held, bio);
	iob_enqueue(&pool->sched, &grp->sched, now);
	pool->nr_held++;
	spin_unlock_irqrestore(&pool->lock, flags);
	queue_work(ioband_wq, &pool->work);
	return DM_MAPIO_SUBMITTED;
}

static int ioband_end_io(struct dm_target *ti, struct bio *bio,
			 blk_status_t *error)
{
	struct ioband_c *ic = ti->private;
	struct ioband_pool *pool = ic->pool;
	struct ioband_bio *ib = dm_per_bio_data(bio, sizeof(*ib));
	struct ioband_group *grp = ib->grp;
	unsigned long flags;
	bool kick;

	if (!grp)
		return DM_ENDIO_DONE;
	ib->grp = NULL;
	spin_lock_irqsave(&pool->lock, flags);
	iob_complete(&pool->sched, &grp->sched, ib->sectors, ib->dispatched,
		     ktime_get_ns());
	if (grp->detached && !grp->sched.in_flight)
		ioband_group_free(pool, grp);
	kick = pool->nr_held;
	spin_unlock_irqrestore(&pool->lock, flags);
	if (kick)
		queue_work(ioband_wq, &pool->work);
	return DM_ENDIO_DONE;
}

/*----------------------------------------------------------------
 * Constructor and destructor
 *--------------------------------------------------------------*/

static void ioband_free_groups(struct ioband_c *ic)
{
	struct ioband_pool *pool = ic->pool;
	struct ioband_group *grp;
	unsigned long id;

	spin_lock_irq(&pool->lock);
	xa_for_each(&ic->groups, id, grp)
		ioband_group_free(pool, grp);
	if (ic->dflt)
		ioband_group_free(pool, ic->dflt);
	spin_unlock_irq(&pool->lock);
	xa_destroy(&ic->groups);
}

static void ioband_destroy(struct ioband_c *ic)
{
	if (ic->pool) {
		ioband_free_groups(ic);
		ioband_pool_put(ic->pool);
	}
	kfree(ic);
}

/*
 * Construct an ioband mapping:
 *
 * <dev> <device-group-id> <io_throttle> <io_limit> <group-type> <policy>
 *   <token-base> :<default-weight> [<group-id>:<weight>]...
 */
static int ioband_ctr(struct dm_target *ti, unsigned int argc, char **argv)
{
	struct ioband_c *ic;
	unsigned int dgid, dweight, weight, i;
	const char *err;
	u64 id;
	int r;

	if (argc < IOBAND_FIXED_ARGS) {
		ti->error = "Not enough arguments";
		return -EINVAL;
	}
	ic = kzalloc(sizeof(*ic), GFP_KERNEL);
	if (!ic) {
		ti->error = "Cannot allocate context";
		return -ENOMEM;
	}
	mutex_init(&ic->lock);
	xa_init(&ic->groups);

	r = -EINVAL;
	if (parse_uint(argv[1], UINT_MAX, &dgid)) {
		ti->error = "Invalid device-group id";
		goto bad;
	}
	if (parse_uint(argv[2], IOBAND_IO_LIMIT_MAX, &ic->io_throttle)) {
		ti->error = "Invalid io_throttle: must be 0 to 4096";
		goto bad;
	}
	if (parse_uint(argv[3], IOBAND_IO_LIMIT_MAX, &ic->io_limit)) {
		ti->error = "Invalid io_limit: must be 0 to 4096";
		goto bad;
	}
	if (ioband_parse_group_type(argv[4], &ic->type)) {
		ti->error = "Invalid group type: must be none, pid, pgrp, uid or gid";
		goto bad;
	}
	if (ioband_parse_policy(argv[5], &ic->policy)) {
		ti->error = "Invalid policy: must be weight or weight-iosize";
		goto bad;
	}
	if (parse_uint(argv[6], UINT_MAX, &ic->token_base)) {
		ti->error = "Invalid token-base";
		goto bad;
	}
	if (argv[7][0] != ':' || ioband_parse_weight(argv[7] + 1, &dweight)) {
		ti->error = "Invalid default weight: must be :1 to :1000000";
		goto bad;
	}
	/* Check every band group before anything is allocated. */
	for (i = IOBAND_FIXED_ARGS; i < argc; i++) {
		if (ioband_parse_group_spec(argv[i], ic->type, &id, &weight,
					    &err)) {
			ti->error = (char *)err;
			goto bad;
		}
	}

	r = -ENOMEM;
	ic->pool = ioband_pool_get(dgid, ic->policy, ic->io_limit,
				   ic->io_throttle);
	if (!ic->pool) {
		ti->error = "Cannot allocate device group";
		goto bad;
	}
	ic->dflt = ioband_group_alloc(ic, 0, dweight);
	if (!ic->dflt) {
		ti->error = "Cannot allocate default group";
		goto bad;
	}
	for (i = IOBAND_FIXED_ARGS; i < argc; i++) {
		ioband_parse_group_spec(argv[i], ic->type, &id, &weight, &err);
		r = ioband_attach(ic, id, weight, &ti->error);
		if (r) {
			if (r == -EBUSY)
				ti->error = "Band group given twice";
			goto bad;
		}
	}

	r = dm_get_device(ti, argv[0], dm_table_get_mode(ti->table),
			  &ic->dev);
	if (r) {
		ti->error = "Device lookup failed";
		goto bad;
	}
	ti->num_flush_bios = 1;
	ti->num_discard_bios = 1;
	ti->num_write_zeroes_bios = 1;
	ti->per_io_data_size = sizeof(struct ioband_bio);
	ti->accounts_remapped_io = true;
	ti->private = ic;
	return 0;

bad:
	ioband_destroy(ic);
	return r;
}

static void ioband_dtr(struct dm_target *ti)
{
	struct ioband_c *ic = ti->private;

	dm_put_device(ti, ic->dev);
	ioband_destroy(ic);
}

/*----------------------------------------------------------------
 * Suspend and resume
 *--------------------------------------------------------------*/

/* Move every bio held for @ic to @out, dispatched.  pool->lock held. */
static void ioband_release_held(struct ioband_c *ic, struct bio_list *out)
{
	struct ioband_pool *pool = ic->pool;
	struct ioband_group *grp;
	unsigned long id;
	struct bio *bio;
	u64 now = ktime_get_ns();

	xa_for_each(&ic->groups, id, grp) {
		while ((bio = bio_list_pop(&grp->held))) {
			ioband_start(pool, grp, bio, true, now);
			bio_list_add(out, bio);
		}
	}
	while ((bio = bio_list_pop(&ic->dflt->held))) {
		ioband_start(pool, ic->dflt, bio, true, now);
		bio_list_add(out, bio);
	}
}

/*
 * dm waits for every bio of the device, held ones included, before a
 * suspend completes: release them all and hold no more until resume.
 */
static void ioband_presuspend(struct dm_target *ti)
{
	struct ioband_c *ic = ti->private;
	struct bio_list list = BIO_EMPTY_LIST;

	spin_lock_irq(&ic->pool->lock);
	ic->may_hold = false;
	ioband_release_held(ic, &list);
	spin_unlock_irq(&ic->pool->lock);
	ioband_submit_list(&list);
}

static void ioband_resume(struct dm_target *ti)
{
	struct ioband_c *ic = ti->private;
	struct ioband_pool *pool = ic->pool;

	/* The table that goes live sets the device group's settings. */
	spin_lock_irq(&pool->lock);
	iob_pool_set_policy(&pool->sched, ic->policy);
	iob_pool_set_io_limit(&pool->sched, ic->io_limit);
	pool->io_throttle = ic->io_throttle;
	ic->may_hold = true;
	spin_unlock_irq(&pool->lock);
}

/*----------------------------------------------------------------
 * Messages
 *--------------------------------------------------------------*/

static int ioband_msg_weight(struct ioband_c *ic, const char *arg)
{
	struct ioband_pool *pool = ic->pool;
	struct ioband_group *grp = ic->dflt;
	unsigned int weight;
	const char *err;
	u64 id;

	if (strchr(arg, ':')) {
		if (ioband_parse_group_spec(arg, ic->type, &id, &weight,
					    &err)) {
			DMERR("weight %s: %s", arg, err);
			return -EINVAL;
		}
		grp = xa_load(&ic->groups, id);
		if (!grp) {
			DMERR("weight %s: no band group %llu", arg, id);
			return -ENOENT;
		}
	} else if (ioband_parse_weight(arg, &weight)) {
		DMERR("weight %s: must be 1 to 1000000", arg);
		return -EINVAL;
	}
	spin_lock_irq(&pool->lock);
	iob_group_set_weight(&pool->sched, &grp->sched, weight);
	spin_unlock_irq(&pool->lock);
	queue_work(ioband_wq, &pool->work);
	return 0;
}

static void ioband_reset_stats(struct ioband_c *ic)
{
	struct ioband_group *grp;
	unsigned long id;

	spin_lock_irq(&ic->pool->lock);
	xa_for_each(&ic->groups, id, grp)
		memset(&grp->stats, 0, sizeof(grp->stats));
	memset(&ic->dflt->stats, 0, sizeof(ic->dflt->stats));
	spin_unlock_irq(&ic->pool->lock);
}

/* Messages that take one unsigned number. */
static int ioband_msg_number(struct ioband_c *ic, const char *name,
			     const char *arg)
{
	struct ioband_pool *pool = ic->pool;
	unsigned int v;

	if (!strcasecmp(name, "io_throttle") || !strcasecmp(name, "io_limit")) {
		if (parse_uint(arg, IOBAND_IO_LIMIT_MAX, &v)) {
			DMERR("%s %s: must be 0 to %u", name, arg,
			      IOBAND_IO_LIMIT_MAX);
			return -EINVAL;
		}
		spin_lock_irq(&pool->lock);
		if (!strcasecmp(name, "io_limit")) {
			ic->io_limit = v;
			iob_pool_set_io_limit(&pool->sched, v);
		} else {
			ic->io_throttle = v;
			pool->io_throttle = v;
		}
		spin_unlock_irq(&pool->lock);
		queue_work(ioband_wq, &pool->work);
		return 0;
	}
	if (parse_uint(arg, UINT_MAX, &v)) {
		DMERR("%s %s: invalid number", name, arg);
		return -EINVAL;
	}
	if (!strcasecmp(name, "token"))
		WRITE_ONCE(ic->token_base, v);
	else
		WRITE_ONCE(ic->carryover, v);
	return 0;
}

/*
 * attach <id>, detach <id>, weight [<id>:]<w>, token <n>, carryover <n>,
 * io_throttle <n>, io_limit <n>, type <t>, policy <p>, reset.
 */
static int ioband_message(struct dm_target *ti, unsigned int argc,
			  char **argv, char *result, unsigned int maxlen)
{
	struct ioband_c *ic = ti->private;
	const char *err = NULL;
	char *ctr_err = NULL;
	enum ioband_group_type type;
	enum iob_policy policy;
	u64 id;
	int r = -EINVAL;

	mutex_lock(&ic->lock);
	if (argc == 1 && !strcasecmp(argv[0], "reset")) {
		ioband_reset_stats(ic);
		r = 0;
	} else if (argc != 2) {
		DMERR("Invalid message: %s needs %s", argv[0],
		      argc == 1 ? "an argument" : "one argument");
	} else if (!strcasecmp(argv[0], "attach")) {
		if (ioband_parse_group_id(argv[1], ic->type, &id, &err)) {
			DMERR("attach %s: %s", argv[1], err);
		} else {
			r = ioband_attach(ic, id, ic->dflt->sched.weight,
					  &ctr_err);
			if (r)
				DMERR("attach %s: %s", argv[1], ctr_err);
		}
	} else if (!strcasecmp(argv[0], "detach")) {
		if (ioband_parse_group_id(argv[1], ic->type, &id, &err)) {
			DMERR("detach %s: %s", argv[1], err);
		} else {
			r = ioband_detach(ic, id);
			if (r)
				DMERR("detach %s: no such band group", argv[1]);
		}
	} else if (!strcasecmp(argv[0], "weight")) {
		r = ioband_msg_weight(ic, argv[1]);
	} else if (!strcasecmp(argv[0], "type")) {
		if (ioband_parse_group_type(argv[1], &type)) {
			DMERR("type %s: must be none, pid, pgrp, uid or gid",
			      argv[1]);
		} else if (ic->nr_groups && type != ic->type) {
			DMERR("type %s: detach all band groups first", argv[1]);
			r = -EBUSY;
		} else {
			WRITE_ONCE(ic->type, type);
			r = 0;
		}
	} else if (!strcasecmp(argv[0], "policy")) {
		if (ioband_parse_policy(argv[1], &policy)) {
			DMERR("policy %s: must be weight or weight-iosize",
			      argv[1]);
		} else {
			spin_lock_irq(&ic->pool->lock);
			ic->policy = policy;
			iob_pool_set_policy(&ic->pool->sched, policy);
			spin_unlock_irq(&ic->pool->lock);
			r = 0;
		}
	} else if (!strcasecmp(argv[0], "token") ||
		   !strcasecmp(argv[0], "carryover") ||
		   !strcasecmp(argv[0], "io_throttle") ||
		   !strcasecmp(argv[0], "io_limit")) {
		r = ioband_msg_number(ic, argv[0], argv[1]);
	} else {
		DMERR("Unknown message: %s", argv[0]);
	}
	mutex_unlock(&ic->lock);
	return r;
}

/*----------------------------------------------------------------
 * Status
 *--------------------------------------------------------------*/

static void ioband_emit_stats(struct ioband_stats *s, char *result,
			      unsigned int *szp, unsigned int maxlen)
{
	unsigned int sz = *szp;

	DMEMIT(" %llu %llu %llu %llu %llu %llu", s->ios[READ],
	       s->delayed[READ], s->sectors[READ], s->ios[WRITE],
	       s->delayed[WRITE], s->sectors[WRITE]);
	*szp = sz;
}

/*
 * Status (INFO), as dm-ioband 1.x printed it:
 *   <device-group-id> -1 <default group's six counters>
 *     [<group-id> <six counters>]...
 * The counters: read bios, held reads, read sectors, write bios, held
 * writes, write sectors.
 *
 * Table: the constructor's arguments, with the groups attached since.
 */
static void ioband_status(struct dm_target *ti, status_type_t type,
			  unsigned int status_flags, char *result,
			  unsigned int maxlen)
{
	struct ioband_c *ic = ti->private;
	struct ioband_pool *pool = ic->pool;
	struct ioband_group *grp;
	struct ioband_stats s;
	unsigned int sz = 0;
	unsigned long id;

	switch (type) {
	case STATUSTYPE_INFO:
		mutex_lock(&ic->lock);
		spin_lock_irq(&pool->lock);
		s = ic->dflt->stats;
		spin_unlock_irq(&pool->lock);
		DMEMIT("%u -1", pool->id);
		ioband_emit_stats(&s, result, &sz, maxlen);
		xa_for_each(&ic->groups, id, grp) {
			spin_lock_irq(&pool->lock);
			s = grp->stats;
			spin_unlock_irq(&pool->lock);
			DMEMIT(" %lu", id);
			ioband_emit_stats(&s, result, &sz, maxlen);
		}
		mutex_unlock(&ic->lock);
		break;
	case STATUSTYPE_TABLE:
		mutex_lock(&ic->lock);
		DMEMIT("%s %u %u %u %s %s %u :%u", ic->dev->name, pool->id,
		       ic->io_throttle, ic->io_limit,
		       ioband_group_type_name(ic->type),
		       ioband_policy_name(ic->policy), ic->token_base,
		       ic->dflt->sched.weight);
		xa_for_each(&ic->groups, id, grp)
			DMEMIT(" %lu:%u", id, grp->sched.weight);
		mutex_unlock(&ic->lock);
		break;
	case STATUSTYPE_IMA:
		*result = '\0';
		break;
	}
}

static int ioband_iterate_devices(struct dm_target *ti,
				  iterate_devices_callout_fn fn, void *data)
{
	struct ioband_c *ic = ti->private;

	return fn(ti, ic->dev, 0, ti->len, data);
}

static struct target_type ioband_target = {
	.name = "ioband",
	.version = {2, 0, 0},
	.module = THIS_MODULE,
	.ctr = ioband_ctr,
	.dtr = ioband_dtr,
	.map = ioband_map,
	.end_io = ioband_end_io,
	.presuspend = ioband_presuspend,
	.resume = ioband_resume,
	.message = ioband_message,
	.status = ioband_status,
	.iterate_devices = ioband_iterate_devices,
};

static int __init dm_ioband_init(void)
{
	int r;

	ioband_wq = alloc_workqueue("kioband", WQ_MEM_RECLAIM, 0);
	if (!ioband_wq)
		return -ENOMEM;
	r = dm_register_target(&ioband_target);
	if (r)
		destroy_workqueue(ioband_wq);
	return r;
}

static void __exit dm_ioband_exit(void)
{
	dm_unregister_target(&ioband_target);
	destroy_workqueue(ioband_wq);
}

module_init(dm_ioband_init);
module_exit(dm_ioband_exit);

MODULE_DESCRIPTION(DM_NAME " ioband target: share bandwidth by weight");
MODULE_AUTHOR("dm-ioband developers <dm-ioband@lists.example.org>");
MODULE_LICENSE("GPL");
