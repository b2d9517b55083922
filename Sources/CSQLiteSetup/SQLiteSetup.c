#include <pthread.h>
#include <sqlite3.h>
#include <string.h>
#include "CSQLiteSetup.h"

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int result = SQLITE_OK;

// Generated from Unicode 14.0.0's decompositions (Python's unicodedata), for
// the Latin, Greek and Cyrillic blocks and the Latin ligatures: a letter that
// decomposes into a base and combining marks maps to its base; a non-ASCII
// base is lowered (SQLite's LIKE folds ASCII only); and a few letters that do
// not decompose but are read as another (đ, ø, ł, ß, æ, œ, þ...) map to it.
// A replacement is never longer in UTF-8 than the letter it replaces.
static const struct { unsigned short point; char text[4]; } folds[] = {
    {0x00C0, "A"}, {0x00C1, "A"}, {0x00C2, "A"}, {0x00C3, "A"}, {0x00C4, "A"}, {0x00C5, "A"},
    {0x00C6, "AE"}, {0x00C7, "C"}, {0x00C8, "E"}, {0x00C9, "E"}, {0x00CA, "E"}, {0x00CB, "E"},
    {0x00CC, "I"}, {0x00CD, "I"}, {0x00CE, "I"}, {0x00CF, "I"}, {0x00D0, "D"}, {0x00D1, "N"},
    {0x00D2, "O"}, {0x00D3, "O"}, {0x00D4, "O"}, {0x00D5, "O"}, {0x00D6, "O"}, {0x00D8, "O"},
    {0x00D9, "U"}, {0x00DA, "U"}, {0x00DB, "U"}, {0x00DC, "U"}, {0x00DD, "Y"}, {0x00DE, "TH"},
    {0x00DF, "ss"}, {0x00E0, "a"}, {0x00E1, "a"}, {0x00E2, "a"}, {0x00E3, "a"}, {0x00E4, "a"},
    {0x00E5, "a"}, {0x00E6, "ae"}, {0x00E7, "c"}, {0x00E8, "e"}, {0x00E9, "e"}, {0x00EA, "e"},
    {0x00EB, "e"}, {0x00EC, "i"}, {0x00ED, "i"}, {0x00EE, "i"}, {0x00EF, "i"}, {0x00F0, "d"},
    {0x00F1, "n"}, {0x00F2, "o"}, {0x00F3, "o"}, {0x00F4, "o"}, {0x00F5, "o"}, {0x00F6, "o"},
    {0x00F8, "o"}, {0x00F9, "u"}, {0x00FA, "u"}, {0x00FB, "u"}, {0x00FC, "u"}, {0x00FD, "y"},
    {0x00FE, "th"}, {0x00FF, "y"}, {0x0100, "A"}, {0x0101, "a"}, {0x0102, "A"}, {0x0103, "a"},
    {0x0104, "A"}, {0x0105, "a"}, {0x0106, "C"}, {0x0107, "c"}, {0x0108, "C"}, {0x0109, "c"},
    {0x010A, "C"}, {0x010B, "c"}, {0x010C, "C"}, {0x010D, "c"}, {0x010E, "D"}, {0x010F, "d"},
    {0x0110, "D"}, {0x0111, "d"}, {0x0112, "E"}, {0x0113, "e"}, {0x0114, "E"}, {0x0115, "e"},
    {0x0116, "E"}, {0x0117, "e"}, {0x0118, "E"}, {0x0119, "e"}, {0x011A, "E"}, {0x011B, "e"},
    {0x011C, "G"}, {0x011D, "g"}, {0x011E, "G"}, {0x011F, "g"}, {0x0120, "G"}, {0x0121, "g"},
    {0x0122, "G"}, {0x0123, "g"}, {0x0124, "H"}, {0x0125, "h"}, {0x0126, "H"}, {0x0127, "h"},
    {0x0128, "I"}, {0x0129, "i"}, {0x012A, "I"}, {0x012B, "i"}, {0x012C, "I"}, {0x012D, "i"},
    {0x012E, "I"}, {0x012F, "i"}, {0x0130, "I"}, {0x0131, "i"}, {0x0132, "\xc4\xb3"}, {0x0134, "J"},
    {0x0135, "j"}, {0x0136, "K"}, {0x0137, "k"}, {0x0139, "L"}, {0x013A, "l"}, {0x013B, "L"},
    {0x013C, "l"}, {0x013D, "L"}, {0x013E, "l"}, {0x013F, "L"}, {0x0140, "l"}, {0x0141, "L"},
    {0x0142, "l"}, {0x0143, "N"}, {0x0144, "n"}, {0x0145, "N"}, {0x0146, "n"}, {0x0147, "N"},
    {0x0148, "n"}, {0x014A, "\xc5\x8b"}, {0x014C, "O"}, {0x014D, "o"}, {0x014E, "O"}, {0x014F, "o"},
    {0x0150, "O"}, {0x0151, "o"}, {0x0152, "OE"}, {0x0153, "oe"}, {0x0154, "R"}, {0x0155, "r"},
    {0x0156, "R"}, {0x0157, "r"}, {0x0158, "R"}, {0x0159, "r"}, {0x015A, "S"}, {0x015B, "s"},
    {0x015C, "S"}, {0x015D, "s"}, {0x015E, "S"}, {0x015F, "s"}, {0x0160, "S"}, {0x0161, "s"},
    {0x0162, "T"}, {0x0163, "t"}, {0x0164, "T"}, {0x0165, "t"}, {0x0166, "T"}, {0x0167, "t"},
    {0x0168, "U"}, {0x0169, "u"}, {0x016A, "U"}, {0x016B, "u"}, {0x016C, "U"}, {0x016D, "u"},
    {0x016E, "U"}, {0x016F, "u"}, {0x0170, "U"}, {0x0171, "u"}, {0x0172, "U"}, {0x0173, "u"},
    {0x0174, "W"}, {0x0175, "w"}, {0x0176, "Y"}, {0x0177, "y"}, {0x0178, "Y"}, {0x0179, "Z"},
    {0x017A, "z"}, {0x017B, "Z"}, {0x017C, "z"}, {0x017D, "Z"}, {0x017E, "z"}, {0x0181, "\xc9\x93"},
    {0x0182, "\xc6\x83"}, {0x0184, "\xc6\x85"}, {0x0186, "\xc9\x94"}, {0x0187, "\xc6\x88"}, {0x0189, "\xc9\x96"}, {0x018A, "\xc9\x97"},
    {0x018B, "\xc6\x8c"}, {0x018E, "\xc7\x9d"}, {0x018F, "\xc9\x99"}, {0x0190, "\xc9\x9b"}, {0x0191, "\xc6\x92"}, {0x0193, "\xc9\xa0"},
    {0x0194, "\xc9\xa3"}, {0x0196, "\xc9\xa9"}, {0x0197, "\xc9\xa8"}, {0x0198, "\xc6\x99"}, {0x019C, "\xc9\xaf"}, {0x019D, "\xc9\xb2"},
    {0x019F, "\xc9\xb5"}, {0x01A0, "O"}, {0x01A1, "o"}, {0x01A2, "\xc6\xa3"}, {0x01A4, "\xc6\xa5"}, {0x01A6, "\xca\x80"},
    {0x01A7, "\xc6\xa8"}, {0x01A9, "\xca\x83"}, {0x01AC, "\xc6\xad"}, {0x01AE, "\xca\x88"}, {0x01AF, "U"}, {0x01B0, "u"},
    {0x01B1, "\xca\x8a"}, {0x01B2, "\xca\x8b"}, {0x01B3, "\xc6\xb4"}, {0x01B5, "\xc6\xb6"}, {0x01B7, "\xca\x92"}, {0x01B8, "\xc6\xb9"},
    {0x01BC, "\xc6\xbd"}, {0x01C4, "\xc7\x86"}, {0x01C5, "\xc7\x86"}, {0x01C7, "\xc7\x89"}, {0x01C8, "\xc7\x89"}, {0x01CA, "\xc7\x8c"},
    {0x01CB, "\xc7\x8c"}, {0x01CD, "A"}, {0x01CE, "a"}, {0x01CF, "I"}, {0x01D0, "i"}, {0x01D1, "O"},
    {0x01D2, "o"}, {0x01D3, "U"}, {0x01D4, "u"}, {0x01D5, "U"}, {0x01D6, "u"}, {0x01D7, "U"},
    {0x01D8, "u"}, {0x01D9, "U"}, {0x01DA, "u"}, {0x01DB, "U"}, {0x01DC, "u"}, {0x01DE, "A"},
    {0x01DF, "a"}, {0x01E0, "A"}, {0x01E1, "a"}, {0x01E2, "\xc3\xa6"}, {0x01E3, "\xc3\xa6"}, {0x01E4, "\xc7\xa5"},
    {0x01E6, "G"}, {0x01E7, "g"}, {0x01E8, "K"}, {0x01E9, "k"}, {0x01EA, "O"}, {0x01EB, "o"},
    {0x01EC, "O"}, {0x01ED, "o"}, {0x01EE, "\xca\x92"}, {0x01EF, "\xca\x92"}, {0x01F0, "j"}, {0x01F1, "\xc7\xb3"},
    {0x01F2, "\xc7\xb3"}, {0x01F4, "G"}, {0x01F5, "g"}, {0x01F6, "\xc6\x95"}, {0x01F7, "\xc6\xbf"}, {0x01F8, "N"},
    {0x01F9, "n"}, {0x01FA, "A"}, {0x01FB, "a"}, {0x01FC, "\xc3\xa6"}, {0x01FD, "\xc3\xa6"}, {0x01FE, "\xc3\xb8"},
    {0x01FF, "\xc3\xb8"}, {0x0200, "A"}, {0x0201, "a"}, {0x0202, "A"}, {0x0203, "a"}, {0x0204, "E"},
    {0x0205, "e"}, {0x0206, "E"}, {0x0207, "e"}, {0x0208, "I"}, {0x0209, "i"}, {0x020A, "I"},
    {0x020B, "i"}, {0x020C, "O"}, {0x020D, "o"}, {0x020E, "O"}, {0x020F, "o"}, {0x0210, "R"},
    {0x0211, "r"}, {0x0212, "R"}, {0x0213, "r"}, {0x0214, "U"}, {0x0215, "u"}, {0x0216, "U"},
    {0x0217, "u"}, {0x0218, "S"}, {0x0219, "s"}, {0x021A, "T"}, {0x021B, "t"}, {0x021C, "\xc8\x9d"},
    {0x021E, "H"}, {0x021F, "h"}, {0x0220, "\xc6\x9e"}, {0x0222, "\xc8\xa3"}, {0x0224, "\xc8\xa5"}, {0x0226, "A"},
    {0x0227, "a"}, {0x0228, "E"}, {0x0229, "e"}, {0x022A, "O"}, {0x022B, "o"}, {0x022C, "O"},
    {0x022D, "o"}, {0x022E, "O"}, {0x022F, "o"}, {0x0230, "O"}, {0x0231, "o"}, {0x0232, "Y"},
    {0x0233, "y"}, {0x023B, "\xc8\xbc"}, {0x023D, "\xc6\x9a"}, {0x0241, "\xc9\x82"}, {0x0243, "\xc6\x80"}, {0x0244, "\xca\x89"},
    {0x0245, "\xca\x8c"}, {0x0246, "\xc9\x87"}, {0x0248, "\xc9\x89"}, {0x024A, "\xc9\x8b"}, {0x024C, "\xc9\x8d"}, {0x024E, "\xc9\x8f"},
    {0x0370, "\xcd\xb1"}, {0x0372, "\xcd\xb3"}, {0x0374, "\xca\xb9"}, {0x0376, "\xcd\xb7"}, {0x037F, "\xcf\xb3"}, {0x0386, "\xce\xb1"},
    {0x0388, "\xce\xb5"}, {0x0389, "\xce\xb7"}, {0x038A, "\xce\xb9"}, {0x038C, "\xce\xbf"}, {0x038E, "\xcf\x85"}, {0x038F, "\xcf\x89"},
    {0x0390, "\xce\xb9"}, {0x0391, "\xce\xb1"}, {0x0392, "\xce\xb2"}, {0x0393, "\xce\xb3"}, {0x0394, "\xce\xb4"}, {0x0395, "\xce\xb5"},
    {0x0396, "\xce\xb6"}, {0x0397, "\xce\xb7"}, {0x0398, "\xce\xb8"}, {0x0399, "\xce\xb9"}, {0x039A, "\xce\xba"}, {0x039B, "\xce\xbb"},
    {0x039C, "\xce\xbc"}, {0x039D, "\xce\xbd"}, {0x039E, "\xce\xbe"}, {0x039F, "\xce\xbf"}, {0x03A0, "\xcf\x80"}, {0x03A1, "\xcf\x81"},
    {0x03A3, "\xcf\x83"}, {0x03A4, "\xcf\x84"}, {0x03A5, "\xcf\x85"}, {0x03A6, "\xcf\x86"}, {0x03A7, "\xcf\x87"}, {0x03A8, "\xcf\x88"},
    {0x03A9, "\xcf\x89"}, {0x03AA, "\xce\xb9"}, {0x03AB, "\xcf\x85"}, {0x03AC, "\xce\xb1"}, {0x03AD, "\xce\xb5"}, {0x03AE, "\xce\xb7"},
    {0x03AF, "\xce\xb9"}, {0x03B0, "\xcf\x85"}, {0x03CA, "\xce\xb9"}, {0x03CB, "\xcf\x85"}, {0x03CC, "\xce\xbf"}, {0x03CD, "\xcf\x85"},
    {0x03CE, "\xcf\x89"}, {0x03CF, "\xcf\x97"}, {0x03D3, "\xcf\x92"}, {0x03D4, "\xcf\x92"}, {0x03D8, "\xcf\x99"}, {0x03DA, "\xcf\x9b"},
    {0x03DC, "\xcf\x9d"}, {0x03DE, "\xcf\x9f"}, {0x03E0, "\xcf\xa1"}, {0x03E2, "\xcf\xa3"}, {0x03E4, "\xcf\xa5"}, {0x03E6, "\xcf\xa7"},
    {0x03E8, "\xcf\xa9"}, {0x03EA, "\xcf\xab"}, {0x03EC, "\xcf\xad"}, {0x03EE, "\xcf\xaf"}, {0x03F4, "\xce\xb8"}, {0x03F7, "\xcf\xb8"},
    {0x03F9, "\xcf\xb2"}, {0x03FA, "\xcf\xbb"}, {0x03FD, "\xcd\xbb"}, {0x03FE, "\xcd\xbc"}, {0x03FF, "\xcd\xbd"}, {0x0400, "\xd0\xb5"},
    {0x0401, "\xd0\xb5"}, {0x0402, "\xd1\x92"}, {0x0403, "\xd0\xb3"}, {0x0404, "\xd1\x94"}, {0x0405, "\xd1\x95"}, {0x0406, "\xd1\x96"},
    {0x0407, "\xd1\x96"}, {0x0408, "\xd1\x98"}, {0x0409, "\xd1\x99"}, {0x040A, "\xd1\x9a"}, {0x040B, "\xd1\x9b"}, {0x040C, "\xd0\xba"},
    {0x040D, "\xd0\xb8"}, {0x040E, "\xd1\x83"}, {0x040F, "\xd1\x9f"}, {0x0410, "\xd0\xb0"}, {0x0411, "\xd0\xb1"}, {0x0412, "\xd0\xb2"},
    {0x0413, "\xd0\xb3"}, {0x0414, "\xd0\xb4"}, {0x0415, "\xd0\xb5"}, {0x0416, "\xd0\xb6"}, {0x0417, "\xd0\xb7"}, {0x0418, "\xd0\xb8"},
    {0x0419, "\xd0\xb8"}, {0x041A, "\xd0\xba"}, {0x041B, "\xd0\xbb"}, {0x041C, "\xd0\xbc"}, {0x041D, "\xd0\xbd"}, {0x041E, "\xd0\xbe"},
    {0x041F, "\xd0\xbf"}, {0x0420, "\xd1\x80"}, {0x0421, "\xd1\x81"}, {0x0422, "\xd1\x82"}, {0x0423, "\xd1\x83"}, {0x0424, "\xd1\x84"},
    {0x0425, "\xd1\x85"}, {0x0426, "\xd1\x86"}, {0x0427, "\xd1\x87"}, {0x0428, "\xd1\x88"}, {0x0429, "\xd1\x89"}, {0x042A, "\xd1\x8a"},
    {0x042B, "\xd1\x8b"}, {0x042C, "\xd1\x8c"}, {0x042D, "\xd1\x8d"}, {0x042E, "\xd1\x8e"}, {0x042F, "\xd1\x8f"}, {0x0439, "\xd0\xb8"},
    {0x0450, "\xd0\xb5"}, {0x0451, "\xd0\xb5"}, {0x0453, "\xd0\xb3"}, {0x0457, "\xd1\x96"}, {0x045C, "\xd0\xba"}, {0x045D, "\xd0\xb8"},
    {0x045E, "\xd1\x83"}, {0x0460, "\xd1\xa1"}, {0x0462, "\xd1\xa3"}, {0x0464, "\xd1\xa5"}, {0x0466, "\xd1\xa7"}, {0x0468, "\xd1\xa9"},
    {0x046A, "\xd1\xab"}, {0x046C, "\xd1\xad"}, {0x046E, "\xd1\xaf"}, {0x0470, "\xd1\xb1"}, {0x0472, "\xd1\xb3"}, {0x0474, "\xd1\xb5"},
    {0x0476, "\xd1\xb5"}, {0x0477, "\xd1\xb5"}, {0x0478, "\xd1\xb9"}, {0x047A, "\xd1\xbb"}, {0x047C, "\xd1\xbd"}, {0x047E, "\xd1\xbf"},
    {0x0480, "\xd2\x81"}, {0x048A, "\xd2\x8b"}, {0x048C, "\xd2\x8d"}, {0x048E, "\xd2\x8f"}, {0x0490, "\xd2\x91"}, {0x0492, "\xd2\x93"},
    {0x0494, "\xd2\x95"}, {0x0496, "\xd2\x97"}, {0x0498, "\xd2\x99"}, {0x049A, "\xd2\x9b"}, {0x049C, "\xd2\x9d"}, {0x049E, "\xd2\x9f"},
    {0x04A0, "\xd2\xa1"}, {0x04A2, "\xd2\xa3"}, {0x04A4, "\xd2\xa5"}, {0x04A6, "\xd2\xa7"}, {0x04A8, "\xd2\xa9"}, {0x04AA, "\xd2\xab"},
    {0x04AC, "\xd2\xad"}, {0x04AE, "\xd2\xaf"}, {0x04B0, "\xd2\xb1"}, {0x04B2, "\xd2\xb3"}, {0x04B4, "\xd2\xb5"}, {0x04B6, "\xd2\xb7"},
    {0x04B8, "\xd2\xb9"}, {0x04BA, "\xd2\xbb"}, {0x04BC, "\xd2\xbd"}, {0x04BE, "\xd2\xbf"}, {0x04C0, "\xd3\x8f"}, {0x04C1, "\xd0\xb6"},
    {0x04C2, "\xd0\xb6"}, {0x04C3, "\xd3\x84"}, {0x04C5, "\xd3\x86"}, {0x04C7, "\xd3\x88"}, {0x04C9, "\xd3\x8a"}, {0x04CB, "\xd3\x8c"},
    {0x04CD, "\xd3\x8e"}, {0x04D0, "\xd0\xb0"}, {0x04D1, "\xd0\xb0"}, {0x04D2, "\xd0\xb0"}, {0x04D3, "\xd0\xb0"}, {0x04D4, "\xd3\x95"},
    {0x04D6, "\xd0\xb5"}, {0x04D7, "\xd0\xb5"}, {0x04D8, "\xd3\x99"}, {0x04DA, "\xd3\x99"}, {0x04DB, "\xd3\x99"}, {0x04DC, "\xd0\xb6"},
    {0x04DD, "\xd0\xb6"}, {0x04DE, "\xd0\xb7"}, {0x04DF, "\xd0\xb7"}, {0x04E0, "\xd3\xa1"}, {0x04E2, "\xd0\xb8"}, {0x04E3, "\xd0\xb8"},
    {0x04E4, "\xd0\xb8"}, {0x04E5, "\xd0\xb8"}, {0x04E6, "\xd0\xbe"}, {0x04E7, "\xd0\xbe"}, {0x04E8, "\xd3\xa9"}, {0x04EA, "\xd3\xa9"},
    {0x04EB, "\xd3\xa9"}, {0x04EC, "\xd1\x8d"}, {0x04ED, "\xd1\x8d"}, {0x04EE, "\xd1\x83"}, {0x04EF, "\xd1\x83"}, {0x04F0, "\xd1\x83"},
    {0x04F1, "\xd1\x83"}, {0x04F2, "\xd1\x83"}, {0x04F3, "\xd1\x83"}, {0x04F4, "\xd1\x87"}, {0x04F5, "\xd1\x87"}, {0x04F6, "\xd3\xb7"},
    {0x04F8, "\xd1\x8b"}, {0x04F9, "\xd1\x8b"}, {0x04FA, "\xd3\xbb"}, {0x04FC, "\xd3\xbd"}, {0x04FE, "\xd3\xbf"}, {0x0500, "\xd4\x81"},
    {0x0502, "\xd4\x83"}, {0x0504, "\xd4\x85"}, {0x0506, "\xd4\x87"}, {0x0508, "\xd4\x89"}, {0x050A, "\xd4\x8b"}, {0x050C, "\xd4\x8d"},
    {0x050E, "\xd4\x8f"}, {0x0510, "\xd4\x91"}, {0x0512, "\xd4\x93"}, {0x0514, "\xd4\x95"}, {0x0516, "\xd4\x97"}, {0x0518, "\xd4\x99"},
    {0x051A, "\xd4\x9b"}, {0x051C, "\xd4\x9d"}, {0x051E, "\xd4\x9f"}, {0x0520, "\xd4\xa1"}, {0x0522, "\xd4\xa3"}, {0x0524, "\xd4\xa5"},
    {0x0526, "\xd4\xa7"}, {0x0528, "\xd4\xa9"}, {0x052A, "\xd4\xab"}, {0x052C, "\xd4\xad"}, {0x052E, "\xd4\xaf"}, {0x1E00, "A"},
    {0x1E01, "a"}, {0x1E02, "B"}, {0x1E03, "b"}, {0x1E04, "B"}, {0x1E05, "b"}, {0x1E06, "B"},
    {0x1E07, "b"}, {0x1E08, "C"}, {0x1E09, "c"}, {0x1E0A, "D"}, {0x1E0B, "d"}, {0x1E0C, "D"},
    {0x1E0D, "d"}, {0x1E0E, "D"}, {0x1E0F, "d"}, {0x1E10, "D"}, {0x1E11, "d"}, {0x1E12, "D"},
    {0x1E13, "d"}, {0x1E14, "E"}, {0x1E15, "e"}, {0x1E16, "E"}, {0x1E17, "e"}, {0x1E18, "E"},
    {0x1E19, "e"}, {0x1E1A, "E"}, {0x1E1B, "e"}, {0x1E1C, "E"}, {0x1E1D, "e"}, {0x1E1E, "F"},
    {0x1E1F, "f"}, {0x1E20, "G"}, {0x1E21, "g"}, {0x1E22, "H"}, {0x1E23, "h"}, {0x1E24, "H"},
    {0x1E25, "h"}, {0x1E26, "H"}, {0x1E27, "h"}, {0x1E28, "H"}, {0x1E29, "h"}, {0x1E2A, "H"},
    {0x1E2B, "h"}, {0x1E2C, "I"}, {0x1E2D, "i"}, {0x1E2E, "I"}, {0x1E2F, "i"}, {0x1E30, "K"},
    {0x1E31, "k"}, {0x1E32, "K"}, {0x1E33, "k"}, {0x1E34, "K"}, {0x1E35, "k"}, {0x1E36, "L"},
    {0x1E37, "l"}, {0x1E38, "L"}, {0x1E39, "l"}, {0x1E3A, "L"}, {0x1E3B, "l"}, {0x1E3C, "L"},
    {0x1E3D, "l"}, {0x1E3E, "M"}, {0x1E3F, "m"}, {0x1E40, "M"}, {0x1E41, "m"}, {0x1E42, "M"},
    {0x1E43, "m"}, {0x1E44, "N"}, {0x1E45, "n"}, {0x1E46, "N"}, {0x1E47, "n"}, {0x1E48, "N"},
    {0x1E49, "n"}, {0x1E4A, "N"}, {0x1E4B, "n"}, {0x1E4C, "O"}, {0x1E4D, "o"}, {0x1E4E, "O"},
    {0x1E4F, "o"}, {0x1E50, "O"}, {0x1E51, "o"}, {0x1E52, "O"}, {0x1E53, "o"}, {0x1E54, "P"},
    {0x1E55, "p"}, {0x1E56, "P"}, {0x1E57, "p"}, {0x1E58, "R"}, {0x1E59, "r"}, {0x1E5A, "R"},
    {0x1E5B, "r"}, {0x1E5C, "R"}, {0x1E5D, "r"}, {0x1E5E, "R"}, {0x1E5F, "r"}, {0x1E60, "S"},
    {0x1E61, "s"}, {0x1E62, "S"}, {0x1E63, "s"}, {0x1E64, "S"}, {0x1E65, "s"}, {0x1E66, "S"},
    {0x1E67, "s"}, {0x1E68, "S"}, {0x1E69, "s"}, {0x1E6A, "T"}, {0x1E6B, "t"}, {0x1E6C, "T"},
    {0x1E6D, "t"}, {0x1E6E, "T"}, {0x1E6F, "t"}, {0x1E70, "T"}, {0x1E71, "t"}, {0x1E72, "U"},
    {0x1E73, "u"}, {0x1E74, "U"}, {0x1E75, "u"}, {0x1E76, "U"}, {0x1E77, "u"}, {0x1E78, "U"},
    {0x1E79, "u"}, {0x1E7A, "U"}, {0x1E7B, "u"}, {0x1E7C, "V"}, {0x1E7D, "v"}, {0x1E7E, "V"},
    {0x1E7F, "v"}, {0x1E80, "W"}, {0x1E81, "w"}, {0x1E82, "W"}, {0x1E83, "w"}, {0x1E84, "W"},
    {0x1E85, "w"}, {0x1E86, "W"}, {0x1E87, "w"}, {0x1E88, "W"}, {0x1E89, "w"}, {0x1E8A, "X"},
    {0x1E8B, "x"}, {0x1E8C, "X"}, {0x1E8D, "x"}, {0x1E8E, "Y"}, {0x1E8F, "y"}, {0x1E90, "Z"},
    {0x1E91, "z"}, {0x1E92, "Z"}, {0x1E93, "z"}, {0x1E94, "Z"}, {0x1E95, "z"}, {0x1E96, "h"},
    {0x1E97, "t"}, {0x1E98, "w"}, {0x1E99, "y"}, {0x1E9B, "\xc5\xbf"}, {0x1E9E, "SS"}, {0x1EA0, "A"},
    {0x1EA1, "a"}, {0x1EA2, "A"}, {0x1EA3, "a"}, {0x1EA4, "A"}, {0x1EA5, "a"}, {0x1EA6, "A"},
    {0x1EA7, "a"}, {0x1EA8, "A"}, {0x1EA9, "a"}, {0x1EAA, "A"}, {0x1EAB, "a"}, {0x1EAC, "A"},
    {0x1EAD, "a"}, {0x1EAE, "A"}, {0x1EAF, "a"}, {0x1EB0, "A"}, {0x1EB1, "a"}, {0x1EB2, "A"},
    {0x1EB3, "a"}, {0x1EB4, "A"}, {0x1EB5, "a"}, {0x1EB6, "A"}, {0x1EB7, "a"}, {0x1EB8, "E"},
    {0x1EB9, "e"}, {0x1EBA, "E"}, {0x1EBB, "e"}, {0x1EBC, "E"}, {0x1EBD, "e"}, {0x1EBE, "E"},
    {0x1EBF, "e"}, {0x1EC0, "E"}, {0x1EC1, "e"}, {0x1EC2, "E"}, {0x1EC3, "e"}, {0x1EC4, "E"},
    {0x1EC5, "e"}, {0x1EC6, "E"}, {0x1EC7, "e"}, {0x1EC8, "I"}, {0x1EC9, "i"}, {0x1ECA, "I"},
    {0x1ECB, "i"}, {0x1ECC, "O"}, {0x1ECD, "o"}, {0x1ECE, "O"}, {0x1ECF, "o"}, {0x1ED0, "O"},
    {0x1ED1, "o"}, {0x1ED2, "O"}, {0x1ED3, "o"}, {0x1ED4, "O"}, {0x1ED5, "o"}, {0x1ED6, "O"},
    {0x1ED7, "o"}, {0x1ED8, "O"}, {0x1ED9, "o"}, {0x1EDA, "O"}, {0x1EDB, "o"}, {0x1EDC, "O"},
    {0x1EDD, "o"}, {0x1EDE, "O"}, {0x1EDF, "o"}, {0x1EE0, "O"}, {0x1EE1, "o"}, {0x1EE2, "O"},
    {0x1EE3, "o"}, {0x1EE4, "U"}, {0x1EE5, "u"}, {0x1EE6, "U"}, {0x1EE7, "u"}, {0x1EE8, "U"},
    {0x1EE9, "u"}, {0x1EEA, "U"}, {0x1EEB, "u"}, {0x1EEC, "U"}, {0x1EED, "u"}, {0x1EEE, "U"},
    {0x1EEF, "u"}, {0x1EF0, "U"}, {0x1EF1, "u"}, {0x1EF2, "Y"}, {0x1EF3, "y"}, {0x1EF4, "Y"},
    {0x1EF5, "y"}, {0x1EF6, "Y"}, {0x1EF7, "y"}, {0x1EF8, "Y"}, {0x1EF9, "y"}, {0x1EFA, "\xe1\xbb\xbb"},
    {0x1EFC, "\xe1\xbb\xbd"}, {0x1EFE, "\xe1\xbb\xbf"}, {0x1F00, "\xce\xb1"}, {0x1F01, "\xce\xb1"}, {0x1F02, "\xce\xb1"}, {0x1F03, "\xce\xb1"},
    {0x1F04, "\xce\xb1"}, {0x1F05, "\xce\xb1"}, {0x1F06, "\xce\xb1"}, {0x1F07, "\xce\xb1"}, {0x1F08, "\xce\xb1"}, {0x1F09, "\xce\xb1"},
    {0x1F0A, "\xce\xb1"}, {0x1F0B, "\xce\xb1"}, {0x1F0C, "\xce\xb1"}, {0x1F0D, "\xce\xb1"}, {0x1F0E, "\xce\xb1"}, {0x1F0F, "\xce\xb1"},
    {0x1F10, "\xce\xb5"}, {0x1F11, "\xce\xb5"}, {0x1F12, "\xce\xb5"}, {0x1F13, "\xce\xb5"}, {0x1F14, "\xce\xb5"}, {0x1F15, "\xce\xb5"},
    {0x1F18, "\xce\xb5"}, {0x1F19, "\xce\xb5"}, {0x1F1A, "\xce\xb5"}, {0x1F1B, "\xce\xb5"}, {0x1F1C, "\xce\xb5"}, {0x1F1D, "\xce\xb5"},
    {0x1F20, "\xce\xb7"}, {0x1F21, "\xce\xb7"}, {0x1F22, "\xce\xb7"}, {0x1F23, "\xce\xb7"}, {0x1F24, "\xce\xb7"}, {0x1F25, "\xce\xb7"},
    {0x1F26, "\xce\xb7"}, {0x1F27, "\xce\xb7"}, {0x1F28, "\xce\xb7"}, {0x1F29, "\xce\xb7"}, {0x1F2A, "\xce\xb7"}, {0x1F2B, "\xce\xb7"},
    {0x1F2C, "\xce\xb7"}, {0x1F2D, "\xce\xb7"}, {0x1F2E, "\xce\xb7"}, {0x1F2F, "\xce\xb7"}, {0x1F30, "\xce\xb9"}, {0x1F31, "\xce\xb9"},
    {0x1F32, "\xce\xb9"}, {0x1F33, "\xce\xb9"}, {0x1F34, "\xce\xb9"}, {0x1F35, "\xce\xb9"}, {0x1F36, "\xce\xb9"}, {0x1F37, "\xce\xb9"},
    {0x1F38, "\xce\xb9"}, {0x1F39, "\xce\xb9"}, {0x1F3A, "\xce\xb9"}, {0x1F3B, "\xce\xb9"}, {0x1F3C, "\xce\xb9"}, {0x1F3D, "\xce\xb9"},
    {0x1F3E, "\xce\xb9"}, {0x1F3F, "\xce\xb9"}, {0x1F40, "\xce\xbf"}, {0x1F41, "\xce\xbf"}, {0x1F42, "\xce\xbf"}, {0x1F43, "\xce\xbf"},
    {0x1F44, "\xce\xbf"}, {0x1F45, "\xce\xbf"}, {0x1F48, "\xce\xbf"}, {0x1F49, "\xce\xbf"}, {0x1F4A, "\xce\xbf"}, {0x1F4B, "\xce\xbf"},
    {0x1F4C, "\xce\xbf"}, {0x1F4D, "\xce\xbf"}, {0x1F50, "\xcf\x85"}, {0x1F51, "\xcf\x85"}, {0x1F52, "\xcf\x85"}, {0x1F53, "\xcf\x85"},
    {0x1F54, "\xcf\x85"}, {0x1F55, "\xcf\x85"}, {0x1F56, "\xcf\x85"}, {0x1F57, "\xcf\x85"}, {0x1F59, "\xcf\x85"}, {0x1F5B, "\xcf\x85"},
    {0x1F5D, "\xcf\x85"}, {0x1F5F, "\xcf\x85"}, {0x1F60, "\xcf\x89"}, {0x1F61, "\xcf\x89"}, {0x1F62, "\xcf\x89"}, {0x1F63, "\xcf\x89"},
    {0x1F64, "\xcf\x89"}, {0x1F65, "\xcf\x89"}, {0x1F66, "\xcf\x89"}, {0x1F67, "\xcf\x89"}, {0x1F68, "\xcf\x89"}, {0x1F69, "\xcf\x89"},
    {0x1F6A, "\xcf\x89"}, {0x1F6B, "\xcf\x89"}, {0x1F6C, "\xcf\x89"}, {0x1F6D, "\xcf\x89"}, {0x1F6E, "\xcf\x89"}, {0x1F6F, "\xcf\x89"},
    {0x1F70, "\xce\xb1"}, {0x1F71, "\xce\xb1"}, {0x1F72, "\xce\xb5"}, {0x1F73, "\xce\xb5"}, {0x1F74, "\xce\xb7"}, {0x1F75, "\xce\xb7"},
    {0x1F76, "\xce\xb9"}, {0x1F77, "\xce\xb9"}, {0x1F78, "\xce\xbf"}, {0x1F79, "\xce\xbf"}, {0x1F7A, "\xcf\x85"}, {0x1F7B, "\xcf\x85"},
    {0x1F7C, "\xcf\x89"}, {0x1F7D, "\xcf\x89"}, {0x1F80, "\xce\xb1"}, {0x1F81, "\xce\xb1"}, {0x1F82, "\xce\xb1"}, {0x1F83, "\xce\xb1"},
    {0x1F84, "\xce\xb1"}, {0x1F85, "\xce\xb1"}, {0x1F86, "\xce\xb1"}, {0x1F87, "\xce\xb1"}, {0x1F88, "\xce\xb1"}, {0x1F89, "\xce\xb1"},
    {0x1F8A, "\xce\xb1"}, {0x1F8B, "\xce\xb1"}, {0x1F8C, "\xce\xb1"}, {0x1F8D, "\xce\xb1"}, {0x1F8E, "\xce\xb1"}, {0x1F8F, "\xce\xb1"},
    {0x1F90, "\xce\xb7"}, {0x1F91, "\xce\xb7"}, {0x1F92, "\xce\xb7"}, {0x1F93, "\xce\xb7"}, {0x1F94, "\xce\xb7"}, {0x1F95, "\xce\xb7"},
    {0x1F96, "\xce\xb7"}, {0x1F97, "\xce\xb7"}, {0x1F98, "\xce\xb7"}, {0x1F99, "\xce\xb7"}, {0x1F9A, "\xce\xb7"}, {0x1F9B, "\xce\xb7"},
    {0x1F9C, "\xce\xb7"}, {0x1F9D, "\xce\xb7"}, {0x1F9E, "\xce\xb7"}, {0x1F9F, "\xce\xb7"}, {0x1FA0, "\xcf\x89"}, {0x1FA1, "\xcf\x89"},
    {0x1FA2, "\xcf\x89"}, {0x1FA3, "\xcf\x89"}, {0x1FA4, "\xcf\x89"}, {0x1FA5, "\xcf\x89"}, {0x1FA6, "\xcf\x89"}, {0x1FA7, "\xcf\x89"},
    {0x1FA8, "\xcf\x89"}, {0x1FA9, "\xcf\x89"}, {0x1FAA, "\xcf\x89"}, {0x1FAB, "\xcf\x89"}, {0x1FAC, "\xcf\x89"}, {0x1FAD, "\xcf\x89"},
    {0x1FAE, "\xcf\x89"}, {0x1FAF, "\xcf\x89"}, {0x1FB0, "\xce\xb1"}, {0x1FB1, "\xce\xb1"}, {0x1FB2, "\xce\xb1"}, {0x1FB3, "\xce\xb1"},
    {0x1FB4, "\xce\xb1"}, {0x1FB6, "\xce\xb1"}, {0x1FB7, "\xce\xb1"}, {0x1FB8, "\xce\xb1"}, {0x1FB9, "\xce\xb1"}, {0x1FBA, "\xce\xb1"},
    {0x1FBB, "\xce\xb1"}, {0x1FBC, "\xce\xb1"}, {0x1FBE, "\xce\xb9"}, {0x1FC2, "\xce\xb7"}, {0x1FC3, "\xce\xb7"}, {0x1FC4, "\xce\xb7"},
    {0x1FC6, "\xce\xb7"}, {0x1FC7, "\xce\xb7"}, {0x1FC8, "\xce\xb5"}, {0x1FC9, "\xce\xb5"}, {0x1FCA, "\xce\xb7"}, {0x1FCB, "\xce\xb7"},
    {0x1FCC, "\xce\xb7"}, {0x1FD0, "\xce\xb9"}, {0x1FD1, "\xce\xb9"}, {0x1FD2, "\xce\xb9"}, {0x1FD3, "\xce\xb9"}, {0x1FD6, "\xce\xb9"},
    {0x1FD7, "\xce\xb9"}, {0x1FD8, "\xce\xb9"}, {0x1FD9, "\xce\xb9"}, {0x1FDA, "\xce\xb9"}, {0x1FDB, "\xce\xb9"}, {0x1FE0, "\xcf\x85"},
    {0x1FE1, "\xcf\x85"}, {0x1FE2, "\xcf\x85"}, {0x1FE3, "\xcf\x85"}, {0x1FE4, "\xcf\x81"}, {0x1FE5, "\xcf\x81"}, {0x1FE6, "\xcf\x85"},
    {0x1FE7, "\xcf\x85"}, {0x1FE8, "\xcf\x85"}, {0x1FE9, "\xcf\x85"}, {0x1FEA, "\xcf\x85"}, {0x1FEB, "\xcf\x85"}, {0x1FEC, "\xcf\x81"},
    {0x1FF2, "\xcf\x89"}, {0x1FF3, "\xcf\x89"}, {0x1FF4, "\xcf\x89"}, {0x1FF6, "\xcf\x89"}, {0x1FF7, "\xcf\x89"}, {0x1FF8, "\xce\xbf"},
    {0x1FF9, "\xce\xbf"}, {0x1FFA, "\xcf\x89"}, {0x1FFB, "\xcf\x89"}, {0x1FFC, "\xcf\x89"}, {0xFB00, "ff"}, {0xFB01, "fi"},
    {0xFB02, "fl"}, {0xFB03, "ffi"}, {0xFB04, "ffl"}, {0xFB05, "st"}, {0xFB06, "st"},
};

/// The replacement of `point`, or NULL.
static const char *fold_of(unsigned int point) {
    size_t low = 0, high = sizeof(folds) / sizeof(folds[0]);
    while (low < high) {
        size_t middle = (low + high) / 2;
        if (folds[middle].point == point) return folds[middle].text;
        if (folds[middle].point < point) low = middle + 1; else high = middle;
    }
    return NULL;
}

size_t reminders_fold(const unsigned char *text, size_t length, unsigned char *out) {
    size_t written = 0;
    size_t at = 0;
    while (at < length) {
        unsigned char byte = text[at];
        if (byte < 0x80) {
            out[written++] = byte;
            at += 1;
            continue;
        }
        // A two- or three-byte sequence, well formed; anything else is
        // copied byte by byte.
        unsigned int point = 0;
        size_t size = 0;
        if (byte >= 0xC2 && byte <= 0xDF && at + 1 < length && (text[at + 1] & 0xC0) == 0x80) {
            point = ((byte & 0x1Fu) << 6) | (text[at + 1] & 0x3Fu);
            size = 2;
        } else if (byte >= 0xE0 && byte <= 0xEF && at + 2 < length && (text[at + 1] & 0xC0) == 0x80
                   && (text[at + 2] & 0xC0) == 0x80) {
            point = ((byte & 0x0Fu) << 12) | ((text[at + 1] & 0x3Fu) << 6) | (text[at + 2] & 0x3Fu);
            size = point >= 0x800 ? 3 : 0;
        }
        if (size == 0) {
            out[written++] = byte;
            at += 1;
            continue;
        }
        // Combining diacritical marks go.
        if (point >= 0x300 && point <= 0x36F) {
            at += size;
            continue;
        }
        const char *replacement = point <= 0xFFFF ? fold_of(point) : NULL;
        if (replacement) {
            size_t count = strlen(replacement);
            memcpy(out + written, replacement, count);
            written += count;
        } else {
            memcpy(out + written, text + at, size);
            written += size;
        }
        at += size;
    }
    return written;
}

// reminders_fold(text) in SQL: text as `reminders_fold` folds it; any
// other value as it is. ASCII text (most of it) is returned untouched.
static void fold_function(sqlite3_context *context, int count, sqlite3_value **values) {
    (void)count;
    if (sqlite3_value_type(values[0]) != SQLITE_TEXT) {
        sqlite3_result_value(context, values[0]);
        return;
    }
    const unsigned char *text = sqlite3_value_text(values[0]);
    if (!text) {
        sqlite3_result_error_nomem(context);
        return;
    }
    int length = sqlite3_value_bytes(values[0]);
    int at = 0;
    while (at < length && text[at] < 0x80) at++;
    if (at == length) {
        sqlite3_result_value(context, values[0]);
        return;
    }
    unsigned char *out = sqlite3_malloc(length > 0 ? length : 1);
    if (!out) {
        sqlite3_result_error_nomem(context);
        return;
    }
    size_t written = reminders_fold(text, (size_t)length, out);
    sqlite3_result_text(context, (const char *)out, (int)written, sqlite3_free);
}

// Reads a text one byte at a time as titles sort: folded as
// `reminders_fold` folds it, ASCII letters lowered.
typedef struct {
    const unsigned char *text;
    size_t length;
    size_t at;
    unsigned char pending[4];
    size_t pendingCount;
    size_t pendingAt;
} FoldedReader;

// The length of the UTF-8 sequence at `text[at]`, or 1 for a byte that
// does not begin a well-formed one.
static size_t sequence_length(const unsigned char *text, size_t length, size_t at) {
    unsigned char byte = text[at];
    size_t size = byte >= 0xC2 && byte <= 0xDF ? 2 : byte >= 0xE0 && byte <= 0xEF ? 3 : byte >= 0xF0 && byte <= 0xF4 ? 4 : 1;
    if (at + size > length) return 1;
    for (size_t next = 1; next < size; next++) {
        if ((text[at + next] & 0xC0) != 0x80) return 1;
    }
    return size;
}

static unsigned char lowered(unsigned char byte) {
    return byte >= 'A' && byte <= 'Z' ? byte + ('a' - 'A') : byte;
}

// The next byte, or -1 at the end.
static int next_folded(FoldedReader *reader) {
    while (reader->pendingAt == reader->pendingCount) {
        if (reader->at >= reader->length) return -1;
        unsigned char byte = reader->text[reader->at];
        if (byte < 0x80) {
            reader->at += 1;
            return lowered(byte);
        }
        size_t size = sequence_length(reader->text, reader->length, reader->at);
        // A character folds to at most its own length (a combining mark to
        // nothing, and the loop reads on).
        reader->pendingCount = reminders_fold(reader->text + reader->at, size, reader->pending);
        reader->pendingAt = 0;
        reader->at += size;
    }
    return lowered(reader->pending[reader->pendingAt++]);
}

int reminders_title_compare(const unsigned char *a, size_t aLength, const unsigned char *b, size_t bLength) {
    // ASCII folds to itself, lowered: compared in place up to the first
    // other byte (most titles have none), then read folded from there.
    size_t common = aLength < bLength ? aLength : bLength;
    size_t same = 0;
    while (same < common && a[same] < 0x80 && b[same] < 0x80) {
        unsigned char p = lowered(a[same]);
        unsigned char q = lowered(b[same]);
        if (p != q) return p < q ? -1 : 1;
        same++;
    }
    FoldedReader x = {a, aLength, same, {0}, 0, 0};
    FoldedReader y = {b, bLength, same, {0}, 0, 0};
    for (;;) {
        int p = next_folded(&x);
        int q = next_folded(&y);
        // The end (-1) before any byte: a prefix first.
        if (p != q) return p < q ? -1 : 1;
        if (p < 0) break;
    }
    // The same letters: as NOCASE compares them, then byte for byte, so
    // that only equal texts are equal.
    for (size_t at = same; at < common; at++) {
        unsigned char p = lowered(a[at]);
        unsigned char q = lowered(b[at]);
        if (p != q) return p < q ? -1 : 1;
    }
    if (aLength != bLength) return aLength < bLength ? -1 : 1;
    int order = memcmp(a, b, aLength);
    return (order > 0) - (order < 0);
}

static int title_collation(void *context, int aLength, const void *a, int bLength, const void *b) {
    (void)context;
    return reminders_title_compare(a, (size_t)aLength, b, (size_t)bLength);
}

static int register_functions(sqlite3 *db, char **error, const struct sqlite3_api_routines *api) {
    (void)error;
    (void)api;
    int code = sqlite3_create_function_v2(db, "reminders_fold", 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS,
                                          NULL, fold_function, NULL, NULL, NULL);
    if (code != SQLITE_OK) return code;
    return sqlite3_create_collation_v2(db, "reminders_title", SQLITE_UTF8, NULL, title_collation, NULL);
}

static void setup(void) {
    // Memory statistics put one process-wide mutex around every allocation
    // SQLite makes. Nothing here reads them, and with connections working
    // on several threads at once (the screens' reads, a send reading ahead
    // while it stores an answer, the server's thread) that mutex is where
    // they wait for each other.
    result = sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
    // Every connection opened from here on knows `reminders_fold`, which
    // the search index's triggers call, and the `reminders_title`
    // collation, which sorts titles and keeps an index of them.
    int registered = sqlite3_auto_extension((void (*)(void))register_functions);
    if (result == SQLITE_OK) result = registered;
}

int reminders_sqlite_setup(void) {
    pthread_once(&once, setup);
    return result;
}

long reminders_read_file_start(const char *path, unsigned char *buffer, int count) {
    reminders_sqlite_setup();
    sqlite3_vfs *vfs = sqlite3_vfs_find(NULL);
    if (vfs == NULL || count < 0) return -1;
    // The layer opens what its own full path names (it refuses to follow
    // a link itself, as sqlite3_open resolves the path first): a database
    // given through a symbolic link is read where the link points.
    char *full = sqlite3_malloc(vfs->mxPathname + 2);
    if (full == NULL) return -1;
    memset(full, 0, (size_t)vfs->mxPathname + 2);
    if ((vfs->xFullPathname(vfs, path, vfs->mxPathname + 1, full) & 0xff) != SQLITE_OK) {
        sqlite3_free(full);
        return -1;
    }
    sqlite3_file *file = sqlite3_malloc(vfs->szOsFile);
    if (file == NULL) {
        sqlite3_free(full);
        return -1;
    }
    memset(file, 0, (size_t)vfs->szOsFile);
    int flags = 0;
    // The main-database flag makes the unix layer file the descriptor with
    // the others of its inode, where a close waits for the locks to go.
    if (vfs->xOpen(vfs, full, file, SQLITE_OPEN_READONLY | SQLITE_OPEN_MAIN_DB, &flags) != SQLITE_OK) {
        if (file->pMethods != NULL) file->pMethods->xClose(file);
        sqlite3_free(file);
        sqlite3_free(full);
        return -1;
    }
    sqlite3_int64 size = 0;
    long read = -1;
    if (file->pMethods->xFileSize(file, &size) == SQLITE_OK) {
        int wanted = size < count ? (int)size : count;
        if (wanted == 0 || file->pMethods->xRead(file, buffer, wanted, 0) == SQLITE_OK) read = wanted;
    }
    file->pMethods->xClose(file);
    sqlite3_free(file);
    sqlite3_free(full);
    return read;
}
