# dm-ioband: top-level commands.  Everything built goes under build/.
#
#   make demo      build, boot UML, run seed 000 test #1, print its table
#   make check     every test (prints "N passed, M failed")
#   make bench     every seed experiment, tables and plots in results/
#                  (then make readme)
#   make shares-onoff  every shares: step of make check with the
#                  controller on and off, into results/shares-onoff.txt
#   make readme    copy the figures of results/ into README.md and
#                  Documentation/*.md (scripts/update-readme.sh)
#   make export    write the commits of build/linux back to patches/
#   make tree      unpack linux-source-6.12 and apply the series
#   make kernel    build the end-to-end UML kernel
#   make kunit     build and run the KUnit suites
#   make qemu-check  build the x86-64 QEMU kernel (lockdep) and run the
#                  guest tests (QEMU_FLAVOUR=kasan|kcsan for the others)
#   make qemu-kernel build the x86-64 QEMU kernel only
#   make deb       the dm-ioband-dkms .deb for Debian's 6.12.117 kernel
#   make dkms-check  install it with Debian's kernel, boot that in QEMU,
#                  run seed test #1 and the SMP stress there (root)
#   make debian-config  drivers/md, W=1, under Debian's amd64 configuration
#   make clean     remove build/ (the ccache survives)

SHELL := /bin/bash

.PHONY: all demo check bench shares-onoff readme export tree kernel kunit deps clean qemu-check qemu-kernel deb dkms-check debian-config

QEMU_FLAVOUR ?= lockdep

all: check

deps:
	scripts/deps.sh

tree: deps
	scripts/prepare-tree.sh

kernel: tree
	scripts/build-uml.sh

kunit: tree
	scripts/kunit.sh

check:
	scripts/check.sh

demo: tree
	scripts/demo.sh

bench: tree
	scripts/bench.sh

shares-onoff: tree
	scripts/shares-onoff.sh

readme:
	scripts/update-readme.sh

qemu-check: tree
	scripts/qemu-check.sh $(QEMU_FLAVOUR)

qemu-kernel: tree
	scripts/qemu/build.sh $(QEMU_FLAVOUR)

export:
	scripts/export-patches.sh

deb: tree
	scripts/dkms/make-deb.sh

dkms-check: tree
	scripts/dkms/test.sh

debian-config: tree
	scripts/dkms/build-debian-config.sh

clean:
	rm -rf build
