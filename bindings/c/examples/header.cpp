// bdtree.h from C++ (`cargo xtask c` compiles this with -std=c++11 -Wall -Wextra -Werror
// -pedantic and runs it): the header's `extern "C"` guards and types work in C++.
#include <cstdio>

#include "bdtree.h"

int main()
{
    bdtree_image_f64 image;
    bdtree_image_info info;
    static const unsigned char not_an_image[64] = {0};
    bdtree_status s = bdtree_image_parse_f64(not_an_image, sizeof not_an_image, &image);
    bool refused = s != BDTREE_STATUS_OK &&
                   bdtree_image_info_f64(&image, &info) == BDTREE_STATUS_NOT_INITIALIZED;
    std::printf("c api c++: the header compiles as C++; a bad image is refused (%s)\n",
                bdtree_status_name(s));
    return refused ? 0 : 1;
}
