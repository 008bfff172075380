#!/usr/bin/env python3
"""Print N device classes drawn at random, as rows for
scripts/dev/matrix-sweep.sh (struct dev_class initialisers, one a line):
devices the matrix does not name, from the spaces issue 25 lists.

    scripts/dev/matrix-random.py SEED N

The same SEED gives the same rows.  Each class draws:
  - tags: 1 to 4,096; a service time of 32 us to 200 ms (log-uniform),
    the tags halved until the device serves 400,000 I/Os a second at
    most (the simulator's time goes with the completions; so too after
    a change mid-run);
  - one time in two a spread (uniform, exponential or lognormal; 10, 25,
    50 or 100 % of the service time); one in seven a 1 % tail at 10x;
  - one in five latency rising with the depth like an SSD's (its knee at
    a half, a quarter or an eighth of the tags, 8 tags at least), one in
    ten like a disk's (32 tags at most);
  - one in eight a write cache (group 1 writes, 10x faster than reads),
    one in twelve slow writes (10x slower; reads of 5 ms at most);
  - one in five submitters that wait for tags the target is not told;
  - one in ten a noisy host (its speed strays by 10, 20 or 30 % every
    20 ms);
  - one in ten (without writes) 1 MiB bios for group 1 against 4 KiB,
    1 us more a KiB, weighed by size (weight-iosize: shares in bytes);
  - one in ten a change mid-run: the service time 5x shorter or longer,
    or the tags a quarter or 4x as many.
The name says what was drawn, prefixed "rN:".
"""
import random
import sys

# the most I/Os a second a drawn device serves (the simulator's time goes
# with the completions)
RATE_MAX = 400000
TAGS = [1, 2, 3, 5, 8, 12, 20, 32, 48, 64, 96, 128, 256, 512, 1024, 2048,
        4096]


def ns(us):
    """The C expression and the name of a time of @us microseconds."""
    if us >= 1000 and us % 1000 == 0:
        return '%d * SIM_MS' % (us // 1000), '%d ms' % (us // 1000)
    if us >= 1000:
        return '%d * SIM_US' % us, '%g ms' % (us / 1000)
    return '%d * SIM_US' % us, '%d us' % us


def rate_ok(tags, svc):
    """Does @tags x @svc us serve RATE_MAX I/Os a second at most?"""
    return tags * 1e6 / svc <= RATE_MAX


def row(rnd, i):
    tags = rnd.choice(TAGS)
    svc = int(round(10 ** rnd.uniform(1.5, 5.3)))
    if svc >= 1000:
        svc -= svc % 1000
    while tags > 1 and not rate_ok(tags, svc):
        tags //= 2
    f = [('tags', str(tags)), ('svc_ns', ns(svc)[0])]
    name = ['%d x %s' % (tags, ns(svc)[1])]
    if rnd.random() < 0.5:
        pct = rnd.choice([10, 25, 50, 100])
        dist = rnd.choice(['uniform', 'exponential', 'lognormal'])
        f.append(('jitter_ns', '%d * SIM_US' % max(1, svc * pct // 100)))
        if dist != 'uniform':
            f.append(('dist', {'exponential': 'SIM_DIST_EXP',
                               'lognormal': 'SIM_DIST_LOGNORMAL'}[dist]))
        name.append('%s %d %%' % (dist, pct))
    if rnd.random() < 1 / 7:
        f += [('tail_permille', '10'), ('tail_mult', '10')]
        name.append('1 % tail at 10x')
    r = rnd.random()
    if r < 0.2 and tags >= 8:
        knee = max(1, tags // rnd.choice([2, 4, 8]))
        f += [('curve', 'SIM_CURVE_SSD'), ('curve_n', str(knee))]
        name.append('SSD-like knee at %d' % knee)
    elif 0.2 <= r < 0.3 and tags <= 32:
        f.append(('curve', 'SIM_CURVE_DISK'))
        name.append('disk-like')
    r = rnd.random()
    writes = False
    if r < 1 / 8:
        f.append(('write_svc_ns', '%d * SIM_US' % max(1, svc // 10)))
        name.append('write cache')
        writes = True
    elif r < 1 / 8 + 1 / 12 and svc <= 5000:
        f.append(('write_svc_ns', '%d * SIM_US' % (10 * svc)))
        name.append('writes 10x slower')
        writes = True
    if rnd.random() < 0.2:
        f.append(('block', 'true'))
        name.append('submitters wait')
    if rnd.random() < 0.1:
        sd = rnd.choice([102, 205, 307])
        f += [('speed_sd', str(sd)), ('speed_ns', '20 * SIM_MS')]
        name.append('host speed %d %%' % round(sd * 100 / 1024))
    if rnd.random() < 0.1 and not writes:
        f += [('per_kib_ns', 'SIM_US'), ('sectors1', '2048')]
        name.append('4 KiB against 1 MiB + 1 us/KiB')
    if rnd.random() < 0.1:
        if rnd.random() < 0.5:
            to = max(30, svc * 5 if rnd.random() < 0.5 else svc // 5)
            # the least service time within RATE_MAX on these tags
            to = max(to, -(-tags * 1000000 // RATE_MAX))
            f += [('swap_svc_ns', ns(to)[0]), ('swap_tags', str(tags))]
            name.append('then %s' % ns(to)[1])
        else:
            to = max(1, tags * 4 if rnd.random() < 0.5 else tags // 4)
            to = min(to, TAGS[-1])
            while to > 1 and not rate_ok(to, svc):
                to //= 2
            f += [('swap_svc_ns', ns(svc)[0]), ('swap_tags', str(to))]
            name.append('then %d tags' % to)
    body = ', '.join('.%s = %s' % kv for kv in f)
    return '\t{ .name = "r%d: %s", %s },' % (i, ', '.join(name), body)


def main():
    if len(sys.argv) != 3:
        sys.exit('usage: matrix-random.py SEED N')
    rnd = random.Random(int(sys.argv[1]))
    for i in range(int(sys.argv[2])):
        print(row(rnd, i))


main()
