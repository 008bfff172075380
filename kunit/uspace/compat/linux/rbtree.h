/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Userspace stand-in for <linux/rbtree.h>: the same API (the subset the
 * policy uses), a plain red-black tree after the classic Linux 2.6
 * lib/rbtree.c, with parent and colour in separate fields. rbtree_test.c
 * checks its invariants.
 */
#ifndef COMPAT_LINUX_RBTREE_H
#define COMPAT_LINUX_RBTREE_H

#include <linux/types.h>

#define RB_RED		0
#define RB_BLACK	1

struct rb_node {
	struct rb_node *rb_parent;
	struct rb_node *rb_right;
	struct rb_node *rb_left;
	int rb_color;
};

struct rb_root {
	struct rb_node *rb_node;
};

struct rb_root_cached {
	struct rb_root rb_root;
	struct rb_node *rb_leftmost;
};

#define RB_ROOT		((struct rb_root) { NULL, })
#define RB_ROOT_CACHED	((struct rb_root_cached) { { NULL, }, NULL })
#define rb_entry(ptr, type, member) container_of(ptr, type, member)
#define RB_EMPTY_ROOT(root) ((root)->rb_node == NULL)
#define RB_EMPTY_NODE(node) ((node)->rb_parent == (node))
#define RB_CLEAR_NODE(node) ((node)->rb_parent = (node))
#define rb_first_cached(root) ((root)->rb_leftmost)

void rb_insert_color(struct rb_node *node, struct rb_root *root);
void rb_erase(struct rb_node *node, struct rb_root *root);
struct rb_node *rb_first(const struct rb_root *root);
struct rb_node *rb_next(const struct rb_node *node);

static inline void rb_link_node(struct rb_node *node, struct rb_node *parent,
				struct rb_node **rb_link)
{
	node->rb_parent = parent;
	node->rb_color = RB_RED;
	node->rb_left = NULL;
	node->rb_right = NULL;
	*rb_link = node;
}

static inline void rb_insert_color_cached(struct rb_node *node,
					  struct rb_root_cached *root,
					  bool leftmost)
{
	if (leftmost)
		root->rb_leftmost = node;
	rb_insert_color(node, &root->rb_root);
}

static inline void rb_erase_cached(struct rb_node *node,
				   struct rb_root_cached *root)
{
	if (root->rb_leftmost == node)
		root->rb_leftmost = rb_next(node);
	rb_erase(node, &root->rb_root);
}

#endif
