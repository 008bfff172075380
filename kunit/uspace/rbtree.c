// SPDX-License-Identifier: GPL-2.0-only
/* Userspace red-black tree for the compat <linux/rbtree.h>. */
#include <linux/rbtree.h>

static int is_black(const struct rb_node *n)
{
	return !n || n->rb_color == RB_BLACK;
}

static void set_child(struct rb_node *parent, struct rb_node *old,
		      struct rb_node *new, struct rb_root *root)
{
	if (!parent)
		root->rb_node = new;
	else if (parent->rb_left == old)
		parent->rb_left = new;
	else
		parent->rb_right = new;
}

static void rotate_left(struct rb_node *node, struct rb_root *root)
{
	struct rb_node *right = node->rb_right;
	struct rb_node *parent = node->rb_parent;

	node->rb_right = right->rb_left;
	if (node->rb_right)
		node->rb_right->rb_parent = node;
	right->rb_left = node;
	right->rb_parent = parent;
	set_child(parent, node, right, root);
	node->rb_parent = right;
}

static void rotate_right(struct rb_node *node, struct rb_root *root)
{
	struct rb_node *left = node->rb_left;
	struct rb_node *parent = node->rb_parent;

	node->rb_left = left->rb_right;
	if (node->rb_left)
		node->rb_left->rb_parent = node;
	left->rb_right = node;
	left->rb_parent = parent;
	set_child(parent, node, left, root);
	node->rb_parent = left;
}

void rb_insert_color(struct rb_node *node, struct rb_root *root)
{
	struct rb_node *parent, *gparent, *uncle, *tmp;

	while ((parent = node->rb_parent) && parent->rb_color == RB_RED) {
		gparent = parent->rb_parent;
		if (parent == gparent->rb_left) {
			uncle = gparent->rb_right;
			if (!is_black(uncle)) {
				uncle->rb_color = RB_BLACK;
				parent->rb_color = RB_BLACK;
				gparent->rb_color = RB_RED;
				node = gparent;
				continue;
			}
			if (parent->rb_right == node) {
				rotate_left(parent, root);
				tmp = parent;
				parent = node;
				node = tmp;
			}
			parent->rb_color = RB_BLACK;
			gparent->rb_color = RB_RED;
			rotate_right(gparent, root);
		} else {
			uncle = gparent->rb_left;
			if (!is_black(uncle)) {
				uncle->rb_color = RB_BLACK;
				parent->rb_color = RB_BLACK;
				gparent->rb_color = RB_RED;
				node = gparent;
				continue;
			}
			if (parent->rb_left == node) {
				rotate_right(parent, root);
				tmp = parent;
				parent = node;
				node = tmp;
			}
			parent->rb_color = RB_BLACK;
			gparent->rb_color = RB_RED;
			rotate_left(gparent, root);
		}
	}
	root->rb_node->rb_color = RB_BLACK;
}

static void erase_color(struct rb_node *node, struct rb_node *parent,
			struct rb_root *root)
{
	struct rb_node *other;

	while (is_black(node) && node != root->rb_node) {
		if (parent->rb_left == node) {
			other = parent->rb_right;
			if (!is_black(other)) {
				other->rb_color = RB_BLACK;
				parent->rb_color = RB_RED;
				rotate_left(parent, root);
				other = parent->rb_right;
			}
			if (is_black(other->rb_left) &&
			    is_black(other->rb_right)) {
				other->rb_color = RB_RED;
				node = parent;
				parent = node->rb_parent;
			} else {
				if (is_black(other->rb_right)) {
					other->rb_left->rb_color = RB_BLACK;
					other->rb_color = RB_RED;
					rotate_right(other, root);
					other = parent->rb_right;
				}
				other->rb_color = parent->rb_color;
				parent->rb_color = RB_BLACK;
				other->rb_right->rb_color = RB_BLACK;
				rotate_left(parent, root);
				node = root->rb_node;
				break;
			}
		} else {
			other = parent->rb_left;
			if (!is_black(other)) {
				other->rb_color = RB_BLACK;
				parent->rb_color = RB_RED;
				rotate_right(parent, root);
				other = parent->rb_left;
			}
			if (is_black(other->rb_left) &&
			    is_black(other->rb_right)) {
				other->rb_color = RB_RED;
				node = parent;
				parent = node->rb_parent;
			} else {
				if (is_black(other->rb_left)) {
					other->rb_right->rb_color = RB_BLACK;
					other->rb_color = RB_RED;
					rotate_left(other, root);
					other = parent->rb_left;
				}
				other->rb_color = parent->rb_color;
				parent->rb_color = RB_BLACK;
				other->rb_left->rb_color = RB_BLACK;
				rotate_right(parent, root);
				node = root->rb_node;
				break;
			}
		}
	}
	if (node)
		node->rb_color = RB_BLACK;
}

void rb_erase(struct rb_node *node, struct rb_root *root)
{
	struct rb_node *child, *parent, *old, *left;
	int color;

	if (!node->rb_left) {
		child = node->rb_right;
	} else if (!node->rb_right) {
		child = node->rb_left;
	} else {
		old = node;
		node = node->rb_right;
		while ((left = node->rb_left))
			node = left;
		set_child(old->rb_parent, old, node, root);
		child = node->rb_right;
		parent = node->rb_parent;
		color = node->rb_color;
		if (parent == old) {
			parent = node;
		} else {
			if (child)
				child->rb_parent = parent;
			parent->rb_left = child;
			node->rb_right = old->rb_right;
			old->rb_right->rb_parent = node;
		}
		node->rb_parent = old->rb_parent;
		node->rb_color = old->rb_color;
		node->rb_left = old->rb_left;
		old->rb_left->rb_parent = node;
		goto color;
	}
	parent = node->rb_parent;
	color = node->rb_color;
	if (child)
		child->rb_parent = parent;
	set_child(parent, node, child, root);
color:
	if (color == RB_BLACK)
		erase_color(child, parent, root);
}

struct rb_node *rb_first(const struct rb_root *root)
{
	struct rb_node *n = root->rb_node;

	if (!n)
		return NULL;
	while (n->rb_left)
		n = n->rb_left;
	return n;
}

struct rb_node *rb_next(const struct rb_node *node)
{
	struct rb_node *parent;

	if (RB_EMPTY_NODE(node))
		return NULL;
	if (node->rb_right) {
		node = node->rb_right;
		while (node->rb_left)
			node = node->rb_left;
		return (struct rb_node *)node;
	}
	while ((parent = node->rb_parent) && node == parent->rb_right)
		node = parent;
	return parent;
}
