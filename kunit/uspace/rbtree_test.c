// SPDX-License-Identifier: GPL-2.0-only
/* Checks the userspace red-black tree: order, colours, black heights. */
#include <stdio.h>
#include <stdlib.h>
#include <linux/rbtree.h>

struct item {
	struct rb_node node;
	unsigned int key;
	int in;
};

static int check(const struct rb_node *n, const struct rb_node *parent)
{
	int l, r;

	if (!n)
		return 1;
	if (n->rb_parent != parent)
		return -1;
	if (n->rb_color == RB_RED &&
	    ((n->rb_left && n->rb_left->rb_color == RB_RED) ||
	     (n->rb_right && n->rb_right->rb_color == RB_RED)))
		return -1;
	l = check(n->rb_left, n);
	r = check(n->rb_right, n);
	if (l < 0 || r < 0 || l != r)
		return -1;
	return l + (n->rb_color == RB_BLACK);
}

#define N 2000

int main(void)
{
	static struct item items[N];
	struct rb_root_cached root = RB_ROOT_CACHED;
	unsigned int i, step, count = 0, prev;
	struct rb_node *n;

	srand(1);
	for (step = 0; step < 200000; step++) {
		struct item *it = &items[rand() % N];

		if (it->in) {
			rb_erase_cached(&it->node, &root);
			it->in = 0;
			count--;
		} else {
			struct rb_node **link = &root.rb_root.rb_node;
			struct rb_node *parent = NULL;
			bool leftmost = true;

			it->key = rand() % 5000;
			while (*link) {
				parent = *link;
				if (it->key < rb_entry(parent, struct item,
						       node)->key) {
					link = &parent->rb_left;
				} else {
					link = &parent->rb_right;
					leftmost = false;
				}
			}
			rb_link_node(&it->node, parent, link);
			rb_insert_color_cached(&it->node, &root, leftmost);
			it->in = 1;
			count++;
		}
		if (step % 997)
			continue;
		if (check(root.rb_root.rb_node, NULL) < 0 ||
		    root.rb_leftmost != rb_first(&root.rb_root)) {
			printf("rbtree: invariant broken at step %u\n", step);
			return 1;
		}
		i = 0;
		prev = 0;
		for (n = rb_first(&root.rb_root); n; n = rb_next(n), i++) {
			if (rb_entry(n, struct item, node)->key < prev) {
				printf("rbtree: order broken\n");
				return 1;
			}
			prev = rb_entry(n, struct item, node)->key;
		}
		if (i != count) {
			printf("rbtree: count %u != %u\n", i, count);
			return 1;
		}
	}
	printf("rbtree: ok\n");
	return 0;
}
